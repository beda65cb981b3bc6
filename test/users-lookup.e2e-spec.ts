import { randomBytes } from 'node:crypto';
import { adminAliceAndBob, appPerDescribe, TestApp, TestUser } from './helpers/test-app';

describe('users', () => {
  let t: TestApp;
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;

  const suite = appPerDescribe(adminAliceAndBob);
  beforeAll(() => {
    ({ t, admin, alice, bob } = suite);
  });

  const bearer = { type: 'bearer' } as const;
  const get = (path: string, token: string) => t.http.get(path).auth(token, bearer);
  const unique = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;

  describe('DELETE /rest/users/{id}', () => {
    it('is 204, then the user is gone and their tokens stop working', async () => {
      const user = await t.createUser();
      await t.http.delete(`/rest/users/${user.id}`).auth(t.adminToken, bearer).expect(204);
      await get(`/rest/users/${user.id}`, t.adminToken).expect(404);
      await t.http.delete(`/rest/users/${user.id}`).auth(t.adminToken, bearer).expect(404);
      await get('/rest/authenticated-user', user.token).expect(401);
      const users = (await get('/rest/users', t.adminToken).expect(200)).body as string[];
      expect(users).not.toContain(user.url);
    });

    it('the application user cannot be deleted (400)', async () => {
      const application = (await get('/rest/authenticated-user', t.adminToken).expect(200)).body;
      const response = await t.http
        .delete(`/rest/users/${application.id}`)
        .auth(admin.token, bearer)
        .expect(400);
      expect(response.headers['content-type']).toMatch(/^text\/plain/);
      await get(`/rest/users/${application.id}`, t.adminToken).expect(200);
    });

    it('an admin cannot delete themself (400)', async () => {
      await t.http.delete(`/rest/users/${admin.id}`).auth(admin.token, bearer).expect(400);
    });

    it('is 403 for a non-admin, even on themself', async () => {
      await t.http.delete(`/rest/users/${bob.id}`).auth(alice.token, bearer).expect(403);
      await t.http.delete(`/rest/users/${alice.id}`).auth(alice.token, bearer).expect(403);
    });
  });

  describe('DELETE /rest/users?username=', () => {
    it('deletes the named user', async () => {
      const user = await t.createUser();
      await t.http
        .delete('/rest/users')
        .query({ username: user.username })
        .auth(t.adminToken, bearer)
        .expect(204);
      await get(`/rest/users/${user.id}`, t.adminToken).expect(404);
    });

    it('is 404 for an unknown username and 400 without one', async () => {
      await t.http
        .delete('/rest/users')
        .query({ username: unique('ghost') })
        .auth(t.adminToken, bearer)
        .expect(404);
      await t.http.delete('/rest/users').auth(t.adminToken, bearer).expect(400);
    });

    it('refuses the application user (400) and non-admins (403)', async () => {
      await t.http
        .delete('/rest/users')
        .query({ username: 'application' })
        .auth(admin.token, bearer)
        .expect(400);
      await t.http
        .delete('/rest/users')
        .query({ username: bob.username })
        .auth(alice.token, bearer)
        .expect(403);
    });
  });

  describe('GET /rest/authenticated-user', () => {
    it('is the user the token belongs to', async () => {
      expect((await get('/rest/authenticated-user', alice.token).expect(200)).body).toMatchObject({
        id: alice.id,
        url: alice.url,
        username: alice.username,
      });
      expect((await get('/rest/authenticated-user', t.adminToken).expect(200)).body).toMatchObject({
        username: 'application',
        isAdmin: true,
      });
    });
  });

  describe('GET /rest/user-search', () => {
    const tag = randomBytes(3).toString('hex');
    let carol: TestUser;
    let percent: TestUser;
    let underscore: TestUser;

    beforeAll(async () => {
      [carol, percent, underscore] = await Promise.all([
        t.createUser({ username: `carol-${tag}` }),
        t.createUser({ username: `p50%off-${tag}` }),
        t.createUser({ username: `a_b-${tag}` }),
      ]);
      await t.createUser({ username: `p50xoff-${tag}` });
      await t.createUser({ username: `axb-${tag}` });
      await t.http
        .put(`/rest/users/${carol.id}`)
        .auth(t.adminToken, bearer)
        .send({
          emailAddress: `carol.${tag}@example.com`,
          forename: `Caroline${tag}`,
          surname: `Smith${tag}`,
        })
        .expect(200);
    });

    const search = (query: Record<string, string>, token = t.adminToken) =>
      t.http.get('/rest/user-search').query(query).auth(token, bearer);
    const usernames = (body: Array<{ username: string }>) => body.map((user) => user.username).sort();

    it.each([
      ['username', () => `ROL-${tag}`],
      ['emailAddress', () => `carol.${tag}@example`],
      ['forename', () => `line${tag}`],
      ['surname', () => `smith${tag}`],
    ])('finds by a part of %s, ignoring case', async (field, value) => {
      const response = await search({ [field]: value() }).expect(200);
      expect(usernames(response.body)).toEqual([carol.username]);
      expect(response.body[0]).toMatchObject({
        id: carol.id,
        url: carol.url,
        emailAddress: `carol.${tag}@example.com`,
      });
    });

    it('exactTextMatch=true needs the whole value; false matches a part', async () => {
      expect((await search({ surname: `mith${tag}`, exactTextMatch: 'true' }).expect(200)).body).toEqual([]);
      const exact = await search({ surname: `Smith${tag}`, exactTextMatch: 'true' }).expect(200);
      expect(usernames(exact.body)).toEqual([carol.username]);
      const partial = await search({ surname: `mith${tag}`, exactTextMatch: 'false' }).expect(200);
      expect(usernames(partial.body)).toEqual([carol.username]);
    });

    it('combines criteria with AND', async () => {
      expect((await search({ forename: `Caroline${tag}`, surname: 'nobody' }).expect(200)).body).toEqual([]);
      const both = await search({ forename: `Caroline${tag}`, surname: `Smith${tag}` }).expect(200);
      expect(usernames(both.body)).toEqual([carol.username]);
    });

    it('treats % and _ literally', async () => {
      expect(usernames((await search({ username: `p50%off-${tag}` }).expect(200)).body)).toEqual([
        percent.username,
      ]);
      expect(usernames((await search({ username: `50%` }).expect(200)).body)).toEqual([percent.username]);
      expect(usernames((await search({ username: `a_b-${tag}` }).expect(200)).body)).toEqual([
        underscore.username,
      ]);
      expect(
        usernames((await search({ username: `a_b-${tag}`, exactTextMatch: 'true' }).expect(200)).body),
      ).toEqual([underscore.username]);
      expect((await search({ username: `%${tag}%`, exactTextMatch: 'true' }).expect(200)).body).toEqual([]);
    });

    it('is 400 for an exactTextMatch that is not a boolean', async () => {
      await search({ username: 'a', exactTextMatch: 'maybe' }).expect(400);
    });

    it('is 403 for a non-admin', async () => {
      await search({ username: alice.username }, alice.token).expect(403);
    });
  });

  describe('acting as another user (?userId=)', () => {
    it('an admin may act as another user', async () => {
      for (const token of [t.adminToken, admin.token]) {
        const response = await get(`/rest/authenticated-user?userId=${bob.id}`, token).expect(200);
        expect(response.body).toMatchObject({ id: bob.id, username: bob.username });
      }
    });

    it("the named user's own permissions then apply", async () => {
      await get(`/rest/users?userId=${bob.id}`, t.adminToken).expect(403);
    });

    it('a non-admin naming someone else is 403', async () => {
      await get(`/rest/authenticated-user?userId=${bob.id}`, alice.token).expect(403);
      await get(`/rest/authenticated-user?userId=999999`, alice.token).expect(403);
    });

    it('a non-admin naming themself is 200', async () => {
      const response = await get(`/rest/authenticated-user?userId=${alice.id}`, alice.token).expect(200);
      expect(response.body.id).toBe(alice.id);
    });

    it.each(['999999', '0', '-5', 'abc', '1.5', '99999999999'])('userId=%s is 400', async (userId) => {
      const response = await get(`/rest/authenticated-user?userId=${userId}`, t.adminToken).expect(400);
      expect(response.headers['content-type']).toMatch(/^text\/plain/);
    });
  });
});
