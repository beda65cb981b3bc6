import { DataSource } from 'typeorm';
import { bearerRequests, itRefusesRequestsWithoutAToken, pathOf } from './helpers/bearer-requests';
import { insertAssets } from './helpers/fixtures';
import { Grants } from './helpers/grant-fixtures';
import { TestApp, TestUser } from './helpers/test-app';

describe('lightbox contents', () => {
  let t: TestApp;
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let defaultLevel: number;
  let secretLevel: number;

  beforeAll(async () => {
    t = await TestApp.start();
    const grants = new Grants(t);
    [admin, alice, bob] = await Promise.all([t.createUser({ admin: true }), t.createUser(), t.createUser()]);
    defaultLevel = await grants.topLevel('Default');
    secretLevel = await grants.topLevel('Secret');
    await grants.give(alice.id, [defaultLevel], ['view']);
    await grants.give(bob.id, [defaultLevel], ['view']);
  });

  afterAll(async () => {
    await t?.close();
  });

  const { get, post, delete: remove } = bearerRequests(() => t);
  const assetUrl = (assetId: number) => `${t.baseUrl}/rest/assets/${assetId}`;
  const newAsset = async (
    accessLevelIds = [defaultLevel],
    extra: { submitted?: boolean; addedByUserId?: number } = {},
  ) => (await insertAssets(t, [{ accessLevelIds, ...extra }]))[0];

  /** A new lightbox of `owner`; returns the path of its contents. */
  async function newLightbox(owner: TestUser): Promise<string> {
    const name = `box-${Math.random().toString(36).slice(2)}`;
    const response = await post(`/rest/users/${owner.id}/lightboxes`, owner.token, { name }).expect(201);
    return pathOf(response.body.lightboxContentsUrl as string);
  }

  describe('without a token', () => {
    itRefusesRequestsWithoutAToken(
      () => t,
      [
        ['GET', '/rest/users/1/lightboxes/1/contents'],
        ['POST', '/rest/users/1/lightboxes/1/contents'],
        ['GET', '/rest/users/1/lightboxes/1/contents/1'],
        ['DELETE', '/rest/users/1/lightboxes/1/contents/1'],
      ],
    );
  });

  describe('POST .../contents', () => {
    it('adds an asset: 201 with Location .../contents/{assetId}; adding it again keeps one copy (200, same Location)', async () => {
      const contents = await newLightbox(alice);
      const assetId = await newAsset();
      const first = await post(contents, alice.token, { url: assetUrl(assetId) }).expect(201);
      expect(first.headers.location).toBe(`${t.baseUrl}${contents}/${assetId}`);
      expect(first.body).toEqual({
        assetInstanceUrl: assetUrl(assetId),
        lightboxInstanceUrl: `${t.baseUrl}${contents.replace(/\/contents$/, '')}`,
      });
      const again = await post(contents, alice.token, { url: assetUrl(assetId) }).expect(200);
      expect(again.headers.location).toBe(first.headers.location);
      expect(again.body).toEqual(first.body);
      expect((await get(contents, alice.token).expect(200)).body).toHaveLength(1);
      expect((await get(contents.replace(/\/contents$/, ''), alice.token).expect(200)).body.size).toBe(1);
    });

    it('keeps one copy when the same asset is added concurrently', async () => {
      const contents = await newLightbox(alice);
      const assetId = await newAsset();
      const responses = await Promise.all(
        Array.from({ length: 5 }, () => post(contents, alice.token, { url: assetUrl(assetId) })),
      );
      expect(responses.map((response) => response.status).sort()).toEqual([200, 200, 200, 200, 201]);
      expect((await get(contents, alice.token).expect(200)).body).toHaveLength(1);
    });

    it.each([
      [{}, 'you must supply the url of the asset to add'],
      [{ url: 42 }, 'the value 42 is not an asset URL'],
      [{ url: '/rest/users/1' }, '"/rest/users/1" is not an asset URL'],
      [
        { url: 'http://example.com/rest/assets/1' },
        'url: http://example.com/rest/assets/1 is not a URL of this service',
      ],
      [{ url: 'not a url at all' }, '"not a url at all" is not an asset URL'],
    ])('is 400 for %j', async (body, message) => {
      const contents = await newLightbox(alice);
      const response = await post(contents, alice.token, body).expect(400);
      expect(response.type).toBe('text/plain');
      expect(response.text).toBe(message);
    });

    it('is 400 for an asset that does not exist or the owner may not view', async () => {
      const contents = await newLightbox(alice);
      const hidden = await newAsset([secretLevel]);
      const unsubmittedOfBob = await newAsset([defaultLevel], { submitted: false, addedByUserId: bob.id });
      for (const assetId of [999999, hidden, unsubmittedOfBob]) {
        const response = await post(contents, alice.token, { url: assetUrl(assetId) }).expect(400);
        expect(response.text).toBe(
          `asset ${assetId} does not exist or the owner of the lightbox may not view it`,
        );
      }
      // An admin adding to alice's lightbox is held to what alice may view.
      await post(contents, admin.token, { url: assetUrl(hidden) }).expect(400);
      // The owner's own unsubmitted asset is visible to them.
      const own = await newAsset([defaultLevel], { submitted: false, addedByUserId: alice.id });
      await post(contents, alice.token, { url: assetUrl(own) }).expect(201);
    });
  });

  describe('GET .../contents', () => {
    it('lists content items like the asset representation, with approved as a string and attributes with label', async () => {
      const contents = await newLightbox(alice);
      const live = await newAsset();
      const own = await newAsset([defaultLevel], { submitted: false, addedByUserId: alice.id });
      for (const assetId of [live, own])
        await post(contents, alice.token, { url: assetUrl(assetId) }).expect(201);
      const list = await get(contents, alice.token).expect(200);
      expect(list.body).toHaveLength(2);
      const [item, ownItem] = list.body;
      const asset = (await get(`/rest/assets/${live}`, alice.token).expect(200)).body;
      expect(item).toEqual({
        url: asset.url,
        assetInLightboxUrl: `${t.baseUrl}${contents}/${live}`,
        contentUrl: asset.contentUrl,
        displayUrl: asset.displayUrl,
        thumbnailUrl: asset.thumbnailUrl,
        previewUrl: asset.previewUrl,
        unwatermarkedLargeImageUrl: asset.unwatermarkedLargeImageUrl,
        approved: 'true',
        attributes: asset.attributes.map((attribute: { id: string; name: string; value: string }) => ({
          id: attribute.id,
          label: attribute.name,
          value: attribute.value,
        })),
      });
      expect(item.contentUrl).toBe(`${assetUrl(live)}/content`);
      expect(typeof ownItem.approved).toBe('string');
      expect(ownItem.url).toBe(assetUrl(own));
    });

    it('lists in the order the assets were added, also when added within one second (MariaDB too)', async () => {
      const contents = await newLightbox(alice);
      const assetIds = [await newAsset(), await newAsset(), await newAsset(), await newAsset()];
      // Newest first, so that neither the asset id nor a whole second can give the order.
      const added = [...assetIds].reverse();
      for (const assetId of added) await post(contents, alice.token, { url: assetUrl(assetId) }).expect(201);
      const list = await get(contents, alice.token).expect(200);
      expect(list.body.map((item: { url: string }) => item.url)).toEqual(added.map(assetUrl));
    });

    it('pages with page/pageSize', async () => {
      const contents = await newLightbox(alice);
      const assetIds = [await newAsset(), await newAsset(), await newAsset()];
      for (const assetId of assetIds)
        await post(contents, alice.token, { url: assetUrl(assetId) }).expect(201);
      const page = await get(`${contents}?page=0&pageSize=2`, alice.token).expect(200);
      expect(page.body.map((item: { url: string }) => item.url)).toEqual(assetIds.slice(0, 2).map(assetUrl));
      expect(page.headers['x-total-count']).toBe('3');
      expect((await get(`${contents}?page=5&pageSize=2`, alice.token).expect(200)).body).toEqual([]);
    });

    it('shows attribute values set on the asset', async () => {
      const contents = await newLightbox(alice);
      const assetId = await newAsset();
      const title = (await get(`/rest/assets/${assetId}`, t.adminToken).expect(200)).body.attributes.find(
        (attribute: { name: string }) => attribute.name === 'Title',
      );
      await t.http
        .put(`/rest/assets/${assetId}`)
        .auth(t.adminToken, { type: 'bearer' })
        .send({ attributes: [{ id: title.id, value: 'Sunset' }] })
        .expect(200);
      await post(contents, alice.token, { url: assetUrl(assetId) }).expect(201);
      const [item] = (await get(contents, alice.token).expect(200)).body;
      expect(item.attributes).toContainEqual({ id: title.id, label: 'Title', value: 'Sunset' });
    });

    it('leaves out assets the owner can no longer see, and deleted assets leave no rows', async () => {
      const contents = await newLightbox(alice);
      const lightbox = contents.replace(/\/contents$/, '');
      const [kept, moved, deleted] = [await newAsset(), await newAsset(), await newAsset()];
      for (const assetId of [kept, moved, deleted])
        await post(contents, alice.token, { url: assetUrl(assetId) }).expect(201);
      const dataSource = t.app.get(DataSource);
      await dataSource.query('UPDATE asset_access_levels SET access_level_id = ? WHERE asset_id = ?', [
        secretLevel,
        moved,
      ]);
      await remove(`/rest/assets/${deleted}`, t.adminToken).expect(204);
      const urls = (await get(contents, alice.token).expect(200)).body.map(
        (item: { url: string }) => item.url,
      );
      expect(urls).toEqual([assetUrl(kept)]);
      expect((await get(lightbox, alice.token).expect(200)).body.size).toBe(1);
      await get(`${contents}/${moved}`, alice.token).expect(404);
      // The admin sees the lightbox through its owner's eyes too.
      expect((await get(contents, admin.token).expect(200)).body).toHaveLength(1);
      const rows: unknown[] = await dataSource.query(
        'SELECT asset_id FROM lightbox_assets WHERE asset_id = ?',
        [deleted],
      );
      expect(rows).toHaveLength(0);
      // Regaining sight brings the asset back.
      await dataSource.query('UPDATE asset_access_levels SET access_level_id = ? WHERE asset_id = ?', [
        defaultLevel,
        moved,
      ]);
      expect((await get(contents, alice.token).expect(200)).body).toHaveLength(2);
    });

    it('deleting the lightbox deletes its contents rows', async () => {
      const contents = await newLightbox(alice);
      const assetId = await newAsset();
      await post(contents, alice.token, { url: assetUrl(assetId) }).expect(201);
      const lightboxId = Number(contents.split('/')[5]);
      await remove(contents.replace(/\/contents$/, ''), alice.token).expect(204);
      const rows: unknown[] = await t.app
        .get(DataSource)
        .query('SELECT asset_id FROM lightbox_assets WHERE lightbox_id = ?', [lightboxId]);
      expect(rows).toHaveLength(0);
    });
  });

  describe('GET and DELETE .../contents/{assetId}', () => {
    it('GET answers the content instance; DELETE removes the asset (204), after which both are 404', async () => {
      const contents = await newLightbox(alice);
      const assetId = await newAsset();
      await post(contents, alice.token, { url: assetUrl(assetId) }).expect(201);
      const instance = await get(`${contents}/${assetId}`, alice.token).expect(200);
      expect(instance.body).toEqual({
        assetInstanceUrl: assetUrl(assetId),
        lightboxInstanceUrl: `${t.baseUrl}${contents.replace(/\/contents$/, '')}`,
      });
      await remove(`${contents}/${assetId}`, alice.token).expect(204);
      const gone = await get(`${contents}/${assetId}`, alice.token).expect(404);
      expect(gone.type).toBe('text/plain');
      expect(gone.text).toBe(`asset ${assetId} is not in lightbox ${contents.split('/')[5]}`);
      await remove(`${contents}/${assetId}`, alice.token).expect(404);
      expect((await get(contents, alice.token).expect(200)).body).toEqual([]);
    });

    it('is 404 for an asset never added and for ids that are no ids', async () => {
      const contents = await newLightbox(alice);
      const assetId = await newAsset();
      await get(`${contents}/${assetId}`, alice.token).expect(404);
      await get(`${contents}/abc`, alice.token).expect(404);
      await remove(`${contents}/0`, alice.token).expect(404);
    });
  });

  describe('ownership', () => {
    it('is 404 for another user on every contents route', async () => {
      const contents = await newLightbox(alice);
      const assetId = await newAsset();
      await post(contents, alice.token, { url: assetUrl(assetId) }).expect(201);
      const notFound = await get(contents, bob.token).expect(404);
      expect(notFound.type).toBe('text/plain');
      await post(contents, bob.token, { url: assetUrl(assetId) }).expect(404);
      await get(`${contents}/${assetId}`, bob.token).expect(404);
      await remove(`${contents}/${assetId}`, bob.token).expect(404);
      expect((await get(contents, alice.token).expect(200)).body).toHaveLength(1);
    });

    it('is 403 when a non-admin acts as another user through ?userId=', async () => {
      const contents = await newLightbox(alice);
      const as = (request: ReturnType<typeof get>) => request.query({ userId: alice.id });
      await as(get(contents, bob.token)).expect(403);
      await as(post(contents, bob.token, { url: assetUrl(1) })).expect(403);
      await as(get(`${contents}/1`, bob.token)).expect(403);
      await as(remove(`${contents}/1`, bob.token)).expect(403);
    });

    it("lets admins and the application user manage anyone's lightbox contents, also acting through ?userId=", async () => {
      const contents = await newLightbox(alice);
      const [first, second] = [await newAsset(), await newAsset()];
      await post(contents, admin.token, { url: assetUrl(first) }).expect(201);
      await t.http
        .post(contents)
        .query({ userId: alice.id })
        .auth(admin.token, { type: 'bearer' })
        .send({ url: assetUrl(second) })
        .expect(201);
      expect((await get(contents, t.adminToken).expect(200)).body).toHaveLength(2);
      await remove(`${contents}/${first}`, t.adminToken).expect(204);
      expect((await get(contents, alice.token).expect(200)).body).toHaveLength(1);
    });
  });
});
