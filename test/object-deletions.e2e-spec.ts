import { ObjectDeletions, ObjectStorage } from '@dam/storage';
import { contentRequests } from './helpers/content-fixtures';
import { defaultAccessLevelId } from './helpers/permission-fixtures';
import { TestApp } from './helpers/test-app';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Issue 14: objects replaced by a content upload are deleted after the response, through the
 * `object_deletions` queue; a delete that fails stays queued and a later run deletes the object.
 */
describe('object deletions: replaced objects go after the response, and failed deletes are retried', () => {
  let t: TestApp;
  let level: number;
  let deletions: ObjectDeletions;
  let storage: ObjectStorage;
  const { newAsset, upload } = contentRequests(() => t);

  beforeAll(async () => {
    t = await TestApp.start();
    level = await defaultAccessLevelId(t);
    deletions = t.app.get(ObjectDeletions);
    storage = t.app.get(ObjectStorage);
  });
  afterAll(() => t?.close());
  afterEach(() => jest.restoreAllMocks());

  /** The asset's objects, as they are now (without waiting for the deletions in flight). */
  async function objectsOf(asset: string): Promise<string[]> {
    const keys: string[] = [];
    for await (const key of storage.list(`assets/${asset.split('/').pop()}/`)) keys.push(key);
    return keys;
  }

  it('deletes the replaced object shortly after the upload answered, and leaves nothing queued', async () => {
    const asset = await newAsset(level);
    await upload(asset, t.adminToken, Buffer.from('first'), 'first.txt').expect(200);
    const [first] = await objectsOf(asset);
    await upload(asset, t.adminToken, Buffer.from('second'), 'second.txt').expect(200);

    // Deleted right after the response: a few ms here, 6 s for a loaded machine.
    const deadline = Date.now() + 6_000;
    let keys = await objectsOf(asset);
    while (keys.length > 1 && Date.now() < deadline) {
      await sleep(50);
      keys = await objectsOf(asset);
    }
    expect(keys).toHaveLength(1);
    expect(keys).not.toContain(first);
    await deletions.settled();
    expect(await deletions.pending()).toEqual([]);
  });

  it('keeps a delete that failed queued, with its error, and deletes the object on a later run', async () => {
    const asset = await newAsset(level);
    await upload(asset, t.adminToken, Buffer.from('old content'), 'old.txt').expect(200);
    const [old] = await objectsOf(asset);

    const failing = jest
      .spyOn(storage, 'delete')
      .mockRejectedValue(Object.assign(new Error('the store refused the delete'), { code: 'SlowDown' }));
    await upload(asset, t.adminToken, Buffer.from('new content'), 'new.txt').expect(200);
    await deletions.settled();
    expect(failing).toHaveBeenCalledWith(old);
    expect(await objectsOf(asset)).toContain(old);
    const queued = await deletions.pending();
    expect(queued).toEqual([
      { key: old, attempts: 1, lastError: expect.stringMatching(/refused the delete/) },
    ]);

    // A run before the retry is due leaves it alone; a run while the store still fails keeps it queued.
    expect(await deletions.runDue(new Date())).toBe(0);
    expect(await deletions.runDue(new Date(Date.now() + 3_600_000))).toBe(0);
    expect(await deletions.pending()).toEqual([expect.objectContaining({ key: old, attempts: 2 })]);

    // The store works again: a later run deletes the object and the row.
    failing.mockRestore();
    expect(await deletions.runDue(new Date(Date.now() + 2 * 3_600_000))).toBe(1);
    expect(await objectsOf(asset)).toHaveLength(1);
    expect(await objectsOf(asset)).not.toContain(old);
    expect(await deletions.pending()).toEqual([]);
  });

  it('queues nothing when the upload fails before the switch (the new object is removed at once)', async () => {
    const asset = await newAsset(level);
    await upload(asset, t.adminToken, Buffer.from('kept'), 'kept.txt').expect(200);
    await t.http
      .put(`${asset}/content`)
      .auth(t.adminToken, { type: 'bearer' })
      .set('Content-Type', 'application/octet-stream')
      .set('X-Copy-Temp-Chunked-File', `${t.rest('temp-chunked-files')}/00000000-0000-4000-8000-000000000000`)
      .set('Content-Disposition', 'attachment; filename="x.txt"')
      .expect(400);
    await deletions.settled();
    expect(await objectsOf(asset)).toHaveLength(1);
    expect(await deletions.pending()).toEqual([]);
  });
});
