import { CHECKED_OUT_TO_ANOTHER_USER, CheckoutService } from '@dam/checkout';
import { DataSource } from 'typeorm';
import { bearerRequests, itRefusesRequestsWithoutAToken } from './helpers/bearer-requests';
import { insertAssets } from './helpers/fixtures';
import { Grants } from './helpers/grant-fixtures';
import { TestApp, TestUser } from './helpers/test-app';

describe('checkout', () => {
  let t: TestApp;
  let grants: Grants;
  let admin: TestUser;
  let editor: TestUser;
  let otherEditor: TestUser;
  let viewer: TestUser;
  let defaultLevel: number;
  let secretLevel: number;

  beforeAll(async () => {
    t = await TestApp.start();
    grants = new Grants(t);
    [admin, editor, otherEditor, viewer] = await Promise.all([
      t.createUser({ admin: true }),
      t.createUser(),
      t.createUser(),
      t.createUser(),
    ]);
    defaultLevel = await grants.topLevel('Default');
    secretLevel = await grants.topLevel('Secret');
    await grants.give(editor.id, [defaultLevel], ['view', 'edit']);
    await grants.give(otherEditor.id, [defaultLevel], ['view', 'edit']);
    await grants.give(viewer.id, [defaultLevel], ['view']);
  });

  afterAll(async () => {
    await t?.close();
  });

  const { get, put, post } = bearerRequests(() => t);
  const checkoutPath = (assetId: number) => `/rest/assets/${assetId}/checkout`;
  const newAsset = async (accessLevelIds = [defaultLevel]): Promise<number> =>
    (await insertAssets(t, [{ accessLevelIds }]))[0];
  const expectConflict = (response: { status: number; type: string; text: string }) => {
    expect(response.status).toBe(409);
    expect(response.type).toBe('text/plain');
    expect(response.text).toBe(CHECKED_OUT_TO_ANOTHER_USER);
  };

  describe('without a token', () => {
    itRefusesRequestsWithoutAToken(
      () => t,
      [
        ['GET', '/rest/assets/1/checkout'],
        ['PUT', '/rest/assets/1/checkout'],
        ['GET', '/rest/checkout'],
        ['PUT', '/rest/checkout'],
        ['POST', '/rest/checkout'],
        ['GET', '/rest/checkout/1'],
        ['PUT', '/rest/checkout/1'],
      ],
    );
  });

  it('the root links checkoutUrl', async () => {
    const root = await get('/rest', editor.token).expect(200);
    expect(root.body.api_version_1_3.checkoutUrl).toBe(`${t.baseUrl}/rest/checkout`);
  });

  describe('GET/PUT /rest/assets/{id}/checkout', () => {
    it('reports "0" when checked in, checks out to the actor when userId is omitted, and back in with 0', async () => {
      const assetId = await newAsset();
      expect((await get(checkoutPath(assetId), viewer.token).expect(200)).body).toEqual({ userId: '0' });
      const out = await put(checkoutPath(assetId), editor.token, {}).expect(200);
      expect(out.body).toEqual({ userId: String(editor.id) });
      expect((await get(checkoutPath(assetId), viewer.token).expect(200)).body).toEqual({
        userId: String(editor.id),
      });
      // Checking out again to the holder changes nothing.
      await put(checkoutPath(assetId), editor.token, { userId: editor.id }).expect(200);
      expect((await put(checkoutPath(assetId), editor.token, { userId: 0 }).expect(200)).body).toEqual({
        userId: '0',
      });
      expect((await get(checkoutPath(assetId), editor.token).expect(200)).body).toEqual({ userId: '0' });
    });

    it('checks in with a negative id too, and checking in a checked-in asset is harmless', async () => {
      const assetId = await newAsset();
      await put(checkoutPath(assetId), editor.token, {}).expect(200);
      expect((await put(checkoutPath(assetId), editor.token, { userId: -1 }).expect(200)).body).toEqual({
        userId: '0',
      });
      expect((await put(checkoutPath(assetId), editor.token, { userId: '0' }).expect(200)).body).toEqual({
        userId: '0',
      });
    });

    it('accepts a PUT without a body as "check out to me"', async () => {
      const assetId = await newAsset();
      const response = await t.http
        .put(checkoutPath(assetId))
        .auth(editor.token, { type: 'bearer' })
        .expect(200);
      expect(response.body).toEqual({ userId: String(editor.id) });
    });

    it('is 409 for another user checking out or in an asset checked out to someone else', async () => {
      const assetId = await newAsset();
      await put(checkoutPath(assetId), editor.token, {}).expect(200);
      expectConflict(await put(checkoutPath(assetId), otherEditor.token, {}));
      expectConflict(await put(checkoutPath(assetId), otherEditor.token, { userId: otherEditor.id }));
      expectConflict(await put(checkoutPath(assetId), otherEditor.token, { userId: 0 }));
      // Also admins check the asset in before handing it to someone else.
      expectConflict(await put(checkoutPath(assetId), admin.token, { userId: otherEditor.id }));
      expect((await get(checkoutPath(assetId), otherEditor.token).expect(200)).body).toEqual({
        userId: String(editor.id),
      });
    });

    it('is 403 without edit permission on every access level of the asset', async () => {
      const assetId = await newAsset();
      const response = await put(checkoutPath(assetId), viewer.token, {}).expect(403);
      expect(response.type).toBe('text/plain');
      expect(response.text).toBe(
        'you need edit permission on every access level of the asset to check it out',
      );
      const [twoLevels] = await insertAssets(t, [
        { accessLevelIds: [defaultLevel, secretLevel], addedByUserId: editor.id },
      ]);
      await put(checkoutPath(twoLevels), editor.token, {}).expect(403);
      // A user without edit may not check in someone else's checkout either.
      await put(checkoutPath(assetId), editor.token, {}).expect(200);
      await put(checkoutPath(assetId), viewer.token, { userId: 0 }).expect(403);
    });

    it('is 403 for a non-admin checking out to someone else', async () => {
      const assetId = await newAsset();
      const response = await put(checkoutPath(assetId), editor.token, { userId: otherEditor.id }).expect(403);
      expect(response.text).toBe('only admins may check an asset out to another user');
      expect((await get(checkoutPath(assetId), editor.token).expect(200)).body).toEqual({ userId: '0' });
    });

    it("lets admins and the application user check out to anyone and check in anyone's checkout", async () => {
      const assetId = await newAsset();
      await put(checkoutPath(assetId), admin.token, { userId: otherEditor.id }).expect(200, {
        userId: String(otherEditor.id),
      });
      await put(checkoutPath(assetId), t.adminToken, { userId: 0 }).expect(200, { userId: '0' });
      await put(checkoutPath(assetId), t.adminToken, { userId: String(viewer.id) }).expect(200, {
        userId: String(viewer.id),
      });
      await put(checkoutPath(assetId), admin.token, { userId: 0 }).expect(200, { userId: '0' });
      const application = await put(checkoutPath(assetId), t.adminToken, {}).expect(200);
      expect(Number(application.body.userId)).toBeGreaterThan(0);
      expect(application.body.userId).not.toBe(String(admin.id));
    });

    it("lets an admin act as a user through ?userId=, with that user's permissions", async () => {
      const assetId = await newAsset();
      const response = await t.http
        .put(checkoutPath(assetId))
        .query({ userId: editor.id })
        .auth(admin.token, { type: 'bearer' })
        .send({})
        .expect(200);
      expect(response.body).toEqual({ userId: String(editor.id) });
      await t.http
        .put(checkoutPath(assetId))
        .query({ userId: viewer.id })
        .auth(admin.token, { type: 'bearer' })
        .send({ userId: 0 })
        .expect(403);
    });

    it('is 403 when a non-admin names someone else in ?userId=', async () => {
      await t.http
        .get(checkoutPath(1))
        .query({ userId: admin.id })
        .auth(viewer.token, { type: 'bearer' })
        .expect(403);
      await t.http
        .put(checkoutPath(1))
        .query({ userId: admin.id })
        .auth(viewer.token, { type: 'bearer' })
        .send({})
        .expect(403);
    });

    it('is 404 for unknown assets, assets the actor cannot see, and ids that are no ids', async () => {
      const hidden = await newAsset([secretLevel]);
      for (const path of [
        checkoutPath(999999),
        checkoutPath(hidden),
        '/rest/assets/abc/checkout',
        '/rest/assets/99999999999/checkout',
      ]) {
        const response = await get(path, editor.token).expect(404);
        expect(response.type).toBe('text/plain');
        await put(path, editor.token, {}).expect(404);
      }
      expect((await get(checkoutPath(hidden), admin.token).expect(200)).body).toEqual({ userId: '0' });
    });

    it('is 400 for a userId that is no whole number, or names no user', async () => {
      const assetId = await newAsset();
      const bad = await put(checkoutPath(assetId), editor.token, { userId: 'abc' }).expect(400);
      expect(bad.type).toBe('text/plain');
      expect(bad.text).toBe('userId must be a whole number');
      await put(checkoutPath(assetId), editor.token, { userId: { id: 1 } }).expect(400);
      const unknown = await put(checkoutPath(assetId), admin.token, { userId: 999999 }).expect(400);
      expect(unknown.text).toBe('userId 999999 does not name a user');
    });

    it('lets exactly one of ten concurrent users check the asset out', async () => {
      const assetId = await newAsset();
      const racers = await Promise.all(Array.from({ length: 10 }, () => t.createUser()));
      for (const racer of racers) await grants.give(racer.id, [defaultLevel], ['view', 'edit']);
      const responses = await Promise.all(racers.map((racer) => put(checkoutPath(assetId), racer.token, {})));
      const winners = responses.filter((response) => response.status === 200);
      expect(winners).toHaveLength(1);
      for (const loser of responses.filter((response) => response.status !== 200)) expectConflict(loser);
      const status = await get(checkoutPath(assetId), admin.token).expect(200);
      expect(status.body).toEqual(winners[0].body);
    });

    it('leaves no checkout behind when the asset is deleted', async () => {
      const assetId = await newAsset();
      await put(checkoutPath(assetId), editor.token, {}).expect(200);
      const dataSource = t.app.get(DataSource);
      await dataSource.query('DELETE FROM assets WHERE id = ?', [assetId]);
      const rows: unknown[] = await dataSource.query(
        'SELECT asset_id FROM asset_checkouts WHERE asset_id = ?',
        [assetId],
      );
      expect(rows).toHaveLength(0);
      await get(checkoutPath(assetId), admin.token).expect(404);
    });
  });

  describe('the checkout base resource', () => {
    it("POST {assetId} answers 303 to /rest/checkout/{assetId}, which answers GET and PUT like the asset's", async () => {
      const assetId = await newAsset();
      const response = await post('/rest/checkout', editor.token, { assetId }).expect(303);
      expect(response.headers.location).toBe(`${t.baseUrl}/rest/checkout/${assetId}`);
      const path = new URL(response.headers.location).pathname;
      expect((await get(path, editor.token).expect(200)).body).toEqual({ userId: '0' });
      expect((await put(path, editor.token, {}).expect(200)).body).toEqual({ userId: String(editor.id) });
      expectConflict(await put(path, otherEditor.token, {}));
      await put(path, viewer.token, { userId: 0 }).expect(403);
      await get(`/rest/checkout/999999`, editor.token).expect(404);
      expect((await get(checkoutPath(assetId), viewer.token).expect(200)).body).toEqual({
        userId: String(editor.id),
      });
      expect((await put(path, editor.token, { userId: 0 }).expect(200)).body).toEqual({ userId: '0' });
    });

    it('POST accepts the id as a string; a missing, bad, unknown or invisible asset is 400', async () => {
      const assetId = await newAsset();
      await post('/rest/checkout', editor.token, { assetId: String(assetId) }).expect(303);
      const missing = await post('/rest/checkout', editor.token, {}).expect(400);
      expect(missing.type).toBe('text/plain');
      expect(missing.text).toBe('you must supply the assetId of the asset to check out');
      await post('/rest/checkout', editor.token, { assetId: 'x' }).expect(400);
      await post('/rest/checkout', editor.token, { assetId: 0 }).expect(400);
      const unknown = await post('/rest/checkout', editor.token, { assetId: 999999 }).expect(400);
      expect(unknown.text).toBe('asset 999999 does not exist');
      const hidden = await newAsset([secretLevel]);
      expect((await post('/rest/checkout', editor.token, { assetId: hidden }).expect(400)).text).toBe(
        `asset ${hidden} does not exist`,
      );
    });

    it("PUT {assetId, userId} checks out and in like the asset's resource", async () => {
      const assetId = await newAsset();
      await put('/rest/checkout', editor.token, { assetId }).expect(200, { userId: String(editor.id) });
      expectConflict(await put('/rest/checkout', otherEditor.token, { assetId }));
      await put('/rest/checkout', viewer.token, { assetId, userId: 0 }).expect(403);
      await put('/rest/checkout', editor.token, { assetId, userId: 0 }).expect(200, { userId: '0' });
      await put('/rest/checkout', editor.token, {}).expect(400);
      await put('/rest/checkout', editor.token, { assetId: 999999 }).expect(400);
    });

    it("GET lists the actor's checkouts; admins see every checkout", async () => {
      const [mine, theirs] = [await newAsset(), await newAsset()];
      await put(checkoutPath(mine), editor.token, {}).expect(200);
      await put(checkoutPath(theirs), otherEditor.token, {}).expect(200);
      const list = await get('/rest/checkout', editor.token).expect(200);
      expect(list.body).toContainEqual({
        assetId: mine,
        userId: String(editor.id),
        assetUrl: `${t.baseUrl}/rest/assets/${mine}`,
        checkoutUrl: `${t.baseUrl}/rest/assets/${mine}/checkout`,
      });
      expect(list.body.every((item: { userId: string }) => item.userId === String(editor.id))).toBe(true);
      const all = await get('/rest/checkout', admin.token).expect(200);
      const ids = all.body.map((item: { assetId: number }) => item.assetId);
      expect(ids).toEqual(expect.arrayContaining([mine, theirs]));
      expect((await get('/rest/checkout', viewer.token).expect(200)).body).toEqual([]);
      const page = await get('/rest/checkout?page=0&pageSize=1', admin.token).expect(200);
      expect(page.body).toHaveLength(1);
      expect(page.headers['x-total-count']).toBe(String(all.body.length));
      await t.http
        .get('/rest/checkout')
        .query({ userId: editor.id })
        .auth(viewer.token, { type: 'bearer' })
        .expect(403);
    });
  });

  describe('CheckoutService.assertEditableBy (for edits and content uploads)', () => {
    const actor = (user: TestUser, isAdmin = false) => ({
      id: user.id,
      username: user.username,
      isAdmin,
      isApplication: false,
    });

    it('refuses others with 409 while the asset is checked out, and lets the holder and admins through', async () => {
      const service = t.app.get(CheckoutService);
      const assetId = await newAsset();
      await expect(service.assertEditableBy(actor(otherEditor), assetId)).resolves.toBeUndefined();
      await put(checkoutPath(assetId), editor.token, {}).expect(200);
      await expect(service.assertEditableBy(actor(editor), assetId)).resolves.toBeUndefined();
      await expect(service.assertEditableBy(actor(admin, true), assetId)).resolves.toBeUndefined();
      await expect(service.assertEditableBy(actor(otherEditor), assetId)).rejects.toMatchObject({
        kind: 'state-conflict',
        message: CHECKED_OUT_TO_ANOTHER_USER,
      });
    });
  });
});
