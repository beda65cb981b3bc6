import { bearerRequests, pathOf } from './helpers/bearer-requests';
import { defaultLevelWith } from './helpers/content-fixtures';
import { createTestDatabase, MATRIX, TestDatabase } from './helpers/databases';
import { Grants } from './helpers/grant-fixtures';
import { startObjectStore, TestObjectStore } from './helpers/object-store';
import { shareRequests } from './helpers/share-fixtures';
import { TestApp, TestUser } from './helpers/test-app';

/**
 * Issue 33: two instances on one database and store (share-fixtures' public requests go to the path
 * on the instance they are made for). A share revoked on one is 404 on the other at
 * once (nothing of a share is cached), and the last download is won by one client even when the two race
 * on different instances.
 */
describe(`shares across instances (${MATRIX})`, () => {
  let database: TestDatabase;
  let store: TestObjectStore | undefined;
  let a: TestApp;
  let b: TestApp;
  let level: number;
  let sharer: TestUser;
  const onA = shareRequests(() => a);
  const onB = shareRequests(() => b);

  beforeAll(async () => {
    database = await createTestDatabase(MATRIX);
    store = MATRIX === 'mysql' ? await startObjectStore() : undefined;
    a = await TestApp.start({ database, objectStore: store });
    b = await TestApp.start({ database, objectStore: store });
    // B booted last: its client secret is the one stored, so B logs users in.
    ({
      level,
      users: [sharer],
    } = await defaultLevelWith(b, new Grants(b), [['view', 'download']]));
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await store?.stop();
    await database?.drop();
  });

  it('revocation on one instance takes effect on the other at once', async () => {
    const asset = await onB.assetWith(level, 'a.txt');
    const created = await onB.share(sharer.token, { assetIds: [asset.id] }).expect(201);
    const url = created.body.publicUrl as string;
    await onA.publicGet(url).expect(200);
    await onA.publicGet(`${url}/items/1`).expect(200);
    await bearerRequests(() => b)
      .delete(pathOf(created.body.url as string), sharer.token)
      .expect(204);
    await onA.publicGet(url).expect(404);
    await onA.publicGet(`${url}/zip`).expect(404);
  });

  it('gives the last download to one of two clients racing on two instances', async () => {
    const asset = await onB.assetWith(level, 'a.txt', 200_000);
    const created = await onB.share(sharer.token, { assetIds: [asset.id], maxDownloads: 1 }).expect(201);
    const item = `${created.body.publicUrl}/items/1`;
    const race = await Promise.all([onA.publicBytes(item), onB.publicBytes(`${created.body.publicUrl}/zip`)]);
    expect(race.map((response) => response.status).sort()).toEqual([200, 404]);
    const winner = race.find((response) => response.status === 200);
    expect((winner?.body as Buffer).length).toBeGreaterThanOrEqual(200_000);
  });
});
