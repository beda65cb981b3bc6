import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
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

  function login(username: string, password: string) {
    return t.http.post('/oauth/token').type('form').send({
      grant_type: 'password',
      username,
      password,
      client_id: t.clientId,
      client_secret: t.clientSecret,
    });
  }

  async function createGroup(name: string): Promise<number> {
    const group = await t.app
      .get(DataSource)
      .getRepository<{ id: number; name: string; createdAt: Date }>('groups')
      .save({ name, createdAt: new Date() });
    return group.id;
  }

  describe('without a token', () => {
    it.each([
      ['GET', '/rest/users'],
      ['POST', '/rest/users?username=nobody'],
      ['DELETE', '/rest/users?username=nobody'],
      ['GET', '/rest/users/1'],
      ['PUT', '/rest/users/1'],
      ['DELETE', '/rest/users/1'],
      ['GET', '/rest/authenticated-user'],
      ['GET', '/rest/user-search?username=a'],
    ])('%s %s is 401', async (method, path) => {
      const response =
        await t.http[method.toLowerCase() as 'get' | 'post' | 'put' | 'delete'](path).expect(401);
      expect(response.headers['www-authenticate']).toBe('Bearer');
    });
  });

  describe('GET /rest/users', () => {
    it('lists the URLs of every user to an admin', async () => {
      for (const token of [t.adminToken, admin.token]) {
        const response = await get('/rest/users', token).expect(200);
        expect(response.body).toEqual(expect.arrayContaining([alice.url, bob.url, admin.url]));
        for (const url of response.body as string[])
          expect(url).toMatch(new RegExp(`^${t.baseUrl}/rest/users/\\d+$`));
      }
    });

    it('pages with page and pageSize', async () => {
      const response = await get('/rest/users?page=0&pageSize=2', t.adminToken).expect(200);
      expect(response.body).toHaveLength(2);
      expect(Number(response.headers['x-total-count'])).toBeGreaterThanOrEqual(4);
      expect(response.headers.link).toContain('rel="next"');
    });

    it('is 403 for a non-admin', async () => {
      await get('/rest/users', alice.token).expect(403);
    });
  });

  describe('POST /rest/users', () => {
    it('creates an empty user: 201, Location and the representation', async () => {
      const username = unique('new');
      const response = await t.http
        .post('/rest/users')
        .query({ username })
        .auth(t.adminToken, bearer)
        .expect(201);
      expect(response.headers.location).toMatch(new RegExp(`^${t.baseUrl}/rest/users/\\d+$`));
      expect(response.body).toEqual({
        id: expect.any(Number),
        url: response.headers.location,
        username,
        emailAddress: null,
        forename: null,
        surname: null,
        groupIds: [],
        isAdmin: false,
        lightboxUrl: `${response.headers.location}/lightboxes`,
      });
      const fetched = await get(new URL(response.headers.location).pathname, t.adminToken).expect(200);
      expect(fetched.body).toEqual(response.body);
    });

    it('is 409 when the username is taken', async () => {
      const response = await t.http
        .post('/rest/users')
        .query({ username: alice.username })
        .auth(t.adminToken, bearer)
        .expect(409);
      expect(response.headers['content-type']).toMatch(/^text\/plain/);
    });

    it('of 10 concurrent creations of one name, exactly one succeeds and the others are 409', async () => {
      const username = unique('race');
      const responses = await Promise.all(
        Array.from({ length: 10 }, () =>
          t.http.post('/rest/users').query({ username }).auth(t.adminToken, bearer),
        ),
      );
      const statuses = responses.map((response) => response.status).sort();
      expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
      const found = await get(
        `/rest/user-search?username=${username}&exactTextMatch=true`,
        t.adminToken,
      ).expect(200);
      expect(found.body).toHaveLength(1);
    });

    it.each(['', '?username=', '?username=%20%20'])('is 400 without a username (%#)', async (query) => {
      const response = await t.http.post(`/rest/users${query}`).auth(t.adminToken, bearer).expect(400);
      expect(response.headers['content-type']).toMatch(/^text\/plain/);
    });

    it('is 403 for a non-admin', async () => {
      await t.http
        .post('/rest/users')
        .query({ username: unique('x') })
        .auth(alice.token, bearer)
        .expect(403);
    });

    it('an admin user (not only the application user) may create users', async () => {
      await t.http
        .post('/rest/users')
        .query({ username: unique('by-admin') })
        .auth(admin.token, bearer)
        .expect(201);
    });
  });

  describe('GET /rest/users/{id}', () => {
    it('an admin reads anyone', async () => {
      const response = await get(`/rest/users/${alice.id}`, admin.token).expect(200);
      expect(response.body).toMatchObject({
        id: alice.id,
        url: alice.url,
        username: alice.username,
        isAdmin: false,
      });
      expect(response.body).not.toHaveProperty('password');
      expect(response.body).not.toHaveProperty('passwordHash');
    });

    it('a user reads themself', async () => {
      const response = await get(`/rest/users/${alice.id}`, alice.token).expect(200);
      expect(response.body.username).toBe(alice.username);
    });

    it('a non-admin reading someone else is 403', async () => {
      await get(`/rest/users/${bob.id}`, alice.token).expect(403);
    });

    it.each(['999999', 'abc', '-1', '99999999999', '1.5', '0', '0x1', '1e0', ' 1'])(
      '/rest/users/%s is 404',
      async (id) => {
        const response = await get(`/rest/users/${id}`, t.adminToken).expect(404);
        expect(response.headers['content-type']).toMatch(/^text\/plain/);
      },
    );
  });

  describe('PUT /rest/users/{id}', () => {
    it('round-trips the full representation; url, id and lightboxUrl are read-only', async () => {
      const user = await t.createUser();
      const original = (await get(`/rest/users/${user.id}`, t.adminToken).expect(200)).body;
      const groupId = await createGroup(unique('group'));
      const changed = {
        ...original,
        emailAddress: 'someone@example.com',
        forename: 'Ada',
        surname: 'Lovelace',
        groupIds: [groupId],
        url: `${t.baseUrl}/rest/users/424242`,
        id: 424242,
        lightboxUrl: 'http://elsewhere.example/lightboxes',
      };
      const response = await t.http
        .put(`/rest/users/${user.id}`)
        .auth(t.adminToken, bearer)
        .send(changed)
        .expect(200);
      expect(response.body).toEqual({
        ...original,
        emailAddress: 'someone@example.com',
        forename: 'Ada',
        surname: 'Lovelace',
        groupIds: [groupId],
      });
      expect((await get(`/rest/users/${user.id}`, t.adminToken).expect(200)).body).toEqual(response.body);

      const again = await t.http
        .put(`/rest/users/${user.id}`)
        .auth(t.adminToken, bearer)
        .send(response.body)
        .expect(200);
      expect(again.body).toEqual(response.body);
    });

    it('clears text fields with null and leaves omitted ones alone', async () => {
      const user = await t.createUser();
      const path = `/rest/users/${user.id}`;
      await t.http.put(path).auth(t.adminToken, bearer).send({ forename: 'F', surname: 'S' }).expect(200);
      const response = await t.http.put(path).auth(t.adminToken, bearer).send({ forename: null }).expect(200);
      expect(response.body).toMatchObject({ forename: null, surname: 'S' });
    });

    it('password is write-only, and login works with the new one only', async () => {
      const user = await t.createUser();
      const password = 'a-brand-new-password';
      const response = await t.http
        .put(`/rest/users/${user.id}`)
        .auth(t.adminToken, bearer)
        .send({ password })
        .expect(200);
      expect(JSON.stringify(response.body)).not.toContain(password);
      expect(response.body).not.toHaveProperty('password');
      expect(response.body).not.toHaveProperty('passwordHash');
      await login(user.username, password).expect(200);
      expect((await login(user.username, user.password).expect(400)).body.error).toBe('invalid_grant');
    });

    it.each([
      ['an invalid email address', { emailAddress: 'not-an-email' }],
      ['a short password', { password: 'short' }],
      ['a non-boolean isAdmin', { isAdmin: 'yes' }],
      ['groupIds that are not numbers', { groupIds: ['a'] }],
      ['unknown groupIds', { groupIds: [987654] }],
      ['an empty username', { username: '' }],
    ])('is 400 for %s', async (_name, body) => {
      const response = await t.http
        .put(`/rest/users/${bob.id}`)
        .auth(t.adminToken, bearer)
        .send(body)
        .expect(400);
      expect(response.headers['content-type']).toMatch(/^text\/plain/);
      expect((await get(`/rest/users/${bob.id}`, t.adminToken).expect(200)).body.username).toBe(bob.username);
    });

    it('is 409 when renaming to a taken username', async () => {
      const user = await t.createUser();
      await t.http
        .put(`/rest/users/${user.id}`)
        .auth(t.adminToken, bearer)
        .send({ username: alice.username })
        .expect(409);
    });

    it('an admin may rename a user and grant administrator rights', async () => {
      const user = await t.createUser();
      const username = unique('renamed');
      const response = await t.http
        .put(`/rest/users/${user.id}`)
        .auth(admin.token, bearer)
        .send({ username, isAdmin: true })
        .expect(200);
      expect(response.body).toMatchObject({ username, isAdmin: true });
      await get('/rest/users', user.token).expect(200);
    });

    it('the application user stays an administrator', async () => {
      const application = (await get('/rest/authenticated-user', t.adminToken).expect(200)).body;
      const response = await t.http
        .put(`/rest/users/${application.id}`)
        .auth(t.adminToken, bearer)
        .send({ isAdmin: false })
        .expect(200);
      expect(response.body.isAdmin).toBe(true);
    });

    it('is 404 for an unknown user', async () => {
      await t.http.put('/rest/users/999999').auth(t.adminToken, bearer).send({ forename: 'x' }).expect(404);
    });

    describe('a non-admin on themself', () => {
      it('may change their names and send their own representation back', async () => {
        const own = (await get(`/rest/users/${alice.id}`, alice.token).expect(200)).body;
        const response = await t.http
          .put(`/rest/users/${alice.id}`)
          .auth(alice.token, bearer)
          .send({ ...own, forename: 'Alice', emailAddress: 'alice@example.com' })
          .expect(200);
        expect(response.body).toEqual({ ...own, forename: 'Alice', emailAddress: 'alice@example.com' });
      });

      it.each([
        ['isAdmin', () => ({ isAdmin: true })],
        ['username', () => ({ username: unique('alice') })],
        ['groupIds', () => ({ groupIds: [] as number[] })],
      ])('is 403 when changing their own %s', async (field, body) => {
        const user = await t.createUser();
        if (field === 'groupIds') {
          await t.http
            .put(`/rest/users/${user.id}`)
            .auth(t.adminToken, bearer)
            .send({ groupIds: [await createGroup(unique('g'))] })
            .expect(200);
        }
        const before = (await get(`/rest/users/${user.id}`, user.token).expect(200)).body;
        await t.http.put(`/rest/users/${user.id}`).auth(user.token, bearer).send(body()).expect(403);
        expect((await get(`/rest/users/${user.id}`, user.token).expect(200)).body).toEqual(before);
      });
    });

    it('a non-admin changing someone else is 403', async () => {
      await t.http
        .put(`/rest/users/${bob.id}`)
        .auth(alice.token, bearer)
        .send({ forename: 'Mallory' })
        .expect(403);
      expect((await get(`/rest/users/${bob.id}`, t.adminToken).expect(200)).body.forename).not.toBe(
        'Mallory',
      );
    });
  });
});
