import { bearerRequests, itRefusesRequestsWithoutAToken, pathOf } from './helpers/bearer-requests';
import { insertAssets } from './helpers/fixtures';
import { Grants } from './helpers/grant-fixtures';
import { TestApp, TestUser } from './helpers/test-app';

const MISSING_NAME = 'you must supply a name when creating a new lightbox';

describe('lightboxes', () => {
  let t: TestApp;
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    t = await TestApp.start();
    [admin, alice, bob] = await Promise.all([t.createUser({ admin: true }), t.createUser(), t.createUser()]);
  });

  afterAll(async () => {
    await t?.close();
  });

  const { get, post, delete: remove } = bearerRequests(() => t);
  const listPath = (user: TestUser) => `/rest/users/${user.id}/lightboxes`;

  async function create(
    user: TestUser,
    body: object,
    token = user.token,
  ): Promise<{ path: string; body: Record<string, unknown> }> {
    const response = await post(listPath(user), token, body).expect(201);
    return {
      path: pathOf(response.headers.location as string),
      body: response.body as Record<string, unknown>,
    };
  }

  describe('without a token', () => {
    itRefusesRequestsWithoutAToken(
      () => t,
      [
        ['GET', '/rest/lightboxes'],
        ['GET', '/rest/users/1/lightboxes'],
        ['POST', '/rest/users/1/lightboxes'],
        ['GET', '/rest/users/1/lightboxes/1'],
        ['POST', '/rest/users/1/lightboxes/1'],
        ['DELETE', '/rest/users/1/lightboxes/1'],
      ],
    );
  });

  describe('the root and /rest/lightboxes', () => {
    it('links lightboxesUrl, which answers the lightboxes of the user the request acts as (200)', async () => {
      const root = await get('/rest', alice.token).expect(200);
      expect(root.body.api_version_1_3.lightboxesUrl).toBe(`${t.baseUrl}/rest/lightboxes`);
      await post(listPath(alice), alice.token, { name: 'Own list A' }).expect(201);
      await post(listPath(alice), alice.token, { name: 'Own list B' }).expect(201);
      await post(listPath(bob), bob.token, { name: 'Own list of Bob' }).expect(201);

      const own = await get('/rest/lightboxes', alice.token).expect(200);
      expect(own.headers.location).toBeUndefined();
      const direct = await get(listPath(alice), alice.token).expect(200);
      expect(own.body).toEqual(direct.body);
      expect(own.body.map((lightbox: { name: string }) => lightbox.name)).toEqual(
        expect.arrayContaining(['Own list A', 'Own list B']),
      );
      expect(own.body.map((lightbox: { name: string }) => lightbox.name)).not.toContain('Own list of Bob');

      const actingAs = await t.http
        .get('/rest/lightboxes')
        .query({ userId: bob.id })
        .auth(admin.token, { type: 'bearer' })
        .expect(200);
      expect(actingAs.body).toEqual((await get(listPath(bob), bob.token).expect(200)).body);

      const paged = await get('/rest/lightboxes?page=0&pageSize=1', alice.token).expect(200);
      expect(paged.body).toEqual(direct.body.slice(0, 1));
      expect(paged.headers['x-total-count']).toBe(String(direct.body.length));
      expect(paged.headers.link).toContain(`<${t.baseUrl}/rest/lightboxes?`);
    });

    it('is 403 when a non-admin names someone else in ?userId=', async () => {
      await t.http
        .get('/rest/lightboxes')
        .query({ userId: bob.id })
        .auth(alice.token, { type: 'bearer' })
        .expect(403);
    });
  });

  describe('POST /rest/users/{id}/lightboxes', () => {
    it('creates a lightbox: 201, Location and the representation', async () => {
      const response = await post(listPath(alice), alice.token, {
        name: 'Holiday',
        description: 'Summer 2024',
      }).expect(201);
      const id = response.body.id as number;
      expect(response.headers.location).toBe(`${t.baseUrl}/rest/users/${alice.id}/lightboxes/${id}`);
      expect(response.body).toEqual({
        id,
        name: 'Holiday',
        description: 'Summer 2024',
        size: 0,
        lightboxContentsUrl: `${t.baseUrl}/rest/users/${alice.id}/lightboxes/${id}/contents`,
        lightboxPublicUrl: null,
      });
      expect((await get(pathOf(response.headers.location), alice.token).expect(200)).body).toEqual(
        response.body,
      );
    });

    it.each([[{}], [{ name: '' }], [{ name: '   ' }], [{ name: null }], [{ description: 'no name' }]])(
      'is 400 with the spec message for %j',
      async (body) => {
        const response = await post(listPath(alice), alice.token, body).expect(400);
        expect(response.type).toBe('text/plain');
        expect(response.text).toBe(MISSING_NAME);
      },
    );

    it('is 400 for a name or description that is not text, or too long', async () => {
      expect((await post(listPath(alice), alice.token, { name: 5 }).expect(400)).text).toBe(
        'the lightbox name must be text',
      );
      await post(listPath(alice), alice.token, { name: 'x'.repeat(256) }).expect(400);
      expect(
        (await post(listPath(alice), alice.token, { name: 'Desc', description: 7 }).expect(400)).text,
      ).toBe('the lightbox description must be text');
    });

    it('is 409 with the exact message when the user already has a lightbox with that name', async () => {
      await create(alice, { name: 'Work' });
      for (const name of ['Work', '  Work ']) {
        const response = await post(listPath(alice), alice.token, { name }).expect(409);
        expect(response.type).toBe('text/plain');
        expect(response.text).toBe('a lightbox named Work already exists for the user');
      }
      // Another user may use the same name.
      await create(bob, { name: 'Work' });
    });

    it('compares names exactly, on every database: case and accents make other names', async () => {
      for (const name of ['Café', 'cafe', 'CAFÉ', 'Cafe']) await create(alice, { name });
      // The same text in decomposed form is the same name.
      await post(listPath(alice), alice.token, { name: 'Cafe\u0301' }).expect(409);
    });

    it('gives one 201 and nineteen 409s to twenty concurrent creations of one name', async () => {
      const responses = await Promise.all(
        Array.from({ length: 20 }, () => post(listPath(alice), alice.token, { name: 'Race' })),
      );
      const statuses = responses.map((response) => response.status).sort();
      expect(statuses).toEqual([201, ...Array<number>(19).fill(409)]);
      for (const response of responses.filter((r) => r.status === 409)) {
        expect(response.text).toBe('a lightbox named Race already exists for the user');
      }
      const list = await get(listPath(alice), alice.token).expect(200);
      expect(list.body.filter((lightbox: { name: string }) => lightbox.name === 'Race')).toHaveLength(1);
    });
  });

  describe('GET /rest/users/{id}/lightboxes', () => {
    it("lists the user's lightboxes with lightboxInstanceUrl, an empty description when none was given", async () => {
      const carol = await t.createUser();
      const first = await create(carol, { name: 'First' });
      const second = await create(carol, { name: 'Second', description: 'two' });
      const list = await get(listPath(carol), carol.token).expect(200);
      expect(list.body).toEqual([
        { ...first.body, description: '', lightboxInstanceUrl: `${t.baseUrl}${first.path}` },
        { ...second.body, lightboxInstanceUrl: `${t.baseUrl}${second.path}` },
      ]);
    });

    it('pages with page/pageSize: X-Total-Count and Link, the array shape kept; bad values are 400', async () => {
      const frank = await t.createUser();
      for (const name of ['A', 'B', 'C']) await create(frank, { name });
      const page = await get(`${listPath(frank)}?page=1&pageSize=2`, frank.token).expect(200);
      expect(page.body.map((lightbox: { name: string }) => lightbox.name)).toEqual(['C']);
      expect(page.headers['x-total-count']).toBe('3');
      expect(page.headers.link).toContain('rel="first"');
      await get(`${listPath(frank)}?pageSize=0`, frank.token).expect(400);
    });

    it('counts in size only the assets the owner can still see', async () => {
      const grants = new Grants(t);
      const [defaultLevel, secretLevel] = [await grants.topLevel('Default'), await grants.topLevel('Secret')];
      const dave = await t.createUser();
      await grants.give(dave.id, [defaultLevel], ['view']);
      const lightbox = await create(dave, { name: 'Counted' });
      const [visible, other] = await insertAssets(t, [
        { accessLevelIds: [defaultLevel] },
        { accessLevelIds: [defaultLevel] },
      ]);
      for (const assetId of [visible, other]) {
        await post(`${lightbox.path}/contents`, dave.token, {
          url: `${t.baseUrl}/rest/assets/${assetId}`,
        }).expect(201);
      }
      expect((await get(lightbox.path, dave.token).expect(200)).body.size).toBe(2);
      // The asset moves to a level dave cannot view.
      const dataSource = t.app.get((await import('typeorm')).DataSource);
      await dataSource.query('UPDATE asset_access_levels SET access_level_id = ? WHERE asset_id = ?', [
        secretLevel,
        other,
      ]);
      expect((await get(lightbox.path, dave.token).expect(200)).body.size).toBe(1);
      expect((await get(listPath(dave), dave.token).expect(200)).body[0].size).toBe(1);
      expect((await get(lightbox.path, admin.token).expect(200)).body.size).toBe(1);
    });
  });

  describe('POST /rest/users/{id}/lightboxes/{id}', () => {
    it('renames and re-describes: 200 with the representation; left-out fields stay', async () => {
      const lightbox = await create(alice, { name: 'Draft', description: 'old' });
      const renamed = await post(lightbox.path, alice.token, { name: 'Final' }).expect(200);
      expect(renamed.body).toEqual({ ...lightbox.body, name: 'Final', description: 'old' });
      const described = await post(lightbox.path, alice.token, { description: 'new' }).expect(200);
      expect(described.body).toMatchObject({ name: 'Final', description: 'new' });
      expect(
        (await post(lightbox.path, alice.token, { description: null }).expect(200)).body.description,
      ).toBe('');
      expect((await get(lightbox.path, alice.token).expect(200)).body).toMatchObject({
        name: 'Final',
        description: '',
      });
      // Keeping its own name is no conflict.
      await post(lightbox.path, alice.token, { name: 'Final' }).expect(200);
    });

    it("is 409 for a name another of the user's lightboxes has, and 400 for a blank name", async () => {
      await create(alice, { name: 'Taken' });
      const lightbox = await create(alice, { name: 'Free' });
      const conflict = await post(lightbox.path, alice.token, { name: 'Taken' }).expect(409);
      expect(conflict.type).toBe('text/plain');
      expect(conflict.text).toBe('a lightbox named Taken already exists for the user');
      const blank = await post(lightbox.path, alice.token, { name: ' ' }).expect(400);
      expect(blank.text).toBe('a lightbox name cannot be blank');
      expect((await get(lightbox.path, alice.token).expect(200)).body.name).toBe('Free');
    });
  });

  describe('DELETE /rest/users/{id}/lightboxes/{id}', () => {
    it('deletes: 204, then the lightbox is gone and its name free again', async () => {
      const lightbox = await create(alice, { name: 'Short-lived' });
      await remove(lightbox.path, alice.token).expect(204);
      const gone = await get(lightbox.path, alice.token).expect(404);
      expect(gone.type).toBe('text/plain');
      await remove(lightbox.path, alice.token).expect(404);
      await create(alice, { name: 'Short-lived' });
    });
  });

  describe('ownership', () => {
    it("hides a user's lightboxes from other users: 404 on every route", async () => {
      const lightbox = await create(alice, { name: 'Private' });
      const id = lightbox.body.id as number;
      const notFound = await get(listPath(alice), bob.token).expect(404);
      expect(notFound.type).toBe('text/plain');
      await post(listPath(alice), bob.token, { name: 'Intruder' }).expect(404);
      await get(lightbox.path, bob.token).expect(404);
      await post(lightbox.path, bob.token, { name: 'Hijacked' }).expect(404);
      await remove(lightbox.path, bob.token).expect(404);
      // Nor under bob's own path.
      await get(`${listPath(bob)}/${id}`, bob.token).expect(404);
      await remove(`${listPath(bob)}/${id}`, bob.token).expect(404);
      expect((await get(lightbox.path, alice.token).expect(200)).body.name).toBe('Private');
    });

    it('is 403 when a non-admin acts as another user through ?userId=', async () => {
      const lightbox = await create(alice, { name: 'Acted on' });
      const as = (request: ReturnType<typeof get>) => request.query({ userId: alice.id });
      await as(get(listPath(alice), bob.token)).expect(403);
      await as(post(listPath(alice), bob.token, { name: 'x' })).expect(403);
      await as(get(lightbox.path, bob.token)).expect(403);
      await as(post(lightbox.path, bob.token, { name: 'y' })).expect(403);
      await as(remove(lightbox.path, bob.token)).expect(403);
    });

    it("lets admins and the application user reach everyone's lightboxes, also acting through ?userId=", async () => {
      const made = await create(alice, { name: 'Made by admin' }, admin.token);
      expect(made.path).toMatch(new RegExp(`^/rest/users/${alice.id}/lightboxes/\\d+$`));
      const byApplication = await get(listPath(alice), t.adminToken).expect(200);
      expect(byApplication.body.map((lightbox: { name: string }) => lightbox.name)).toContain(
        'Made by admin',
      );
      await post(made.path, admin.token, { description: 'admin' }).expect(200);
      const asAlice = await t.http
        .get(listPath(alice))
        .query({ userId: alice.id })
        .auth(admin.token, { type: 'bearer' })
        .expect(200);
      expect(asAlice.body).toEqual((await get(listPath(alice), alice.token).expect(200)).body);
      // Acting as bob, the admin has bob's reach only.
      await t.http
        .get(listPath(alice))
        .query({ userId: bob.id })
        .auth(admin.token, { type: 'bearer' })
        .expect(404);
      await remove(made.path, t.adminToken).expect(204);
    });

    it('is 404 for a user or lightbox that does not exist, and for ids that are no ids', async () => {
      expect((await get('/rest/users/999999/lightboxes', admin.token).expect(404)).text).toBe(
        'user 999999 does not exist',
      );
      await post('/rest/users/999999/lightboxes', admin.token, { name: 'Nobody' }).expect(404);
      await get(`${listPath(alice)}/999999`, alice.token).expect(404);
      await get('/rest/users/abc/lightboxes', alice.token).expect(404);
      await get(`${listPath(alice)}/abc`, alice.token).expect(404);
    });

    it('deleting the user deletes their lightboxes', async () => {
      const erin = await t.createUser();
      const lightbox = await create(erin, { name: 'Doomed' });
      await remove(`/rest/users/${erin.id}`, t.adminToken).expect(204);
      await get(lightbox.path, admin.token).expect(404);
      const dataSource = t.app.get((await import('typeorm')).DataSource);
      const rows: unknown[] = await dataSource.query('SELECT id FROM lightboxes WHERE user_id = ?', [
        erin.id,
      ]);
      expect(rows).toHaveLength(0);
    });
  });
});
