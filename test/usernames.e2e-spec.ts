import { DataSource } from 'typeorm';
import { TestApp } from './helpers/test-app';

/**
 * Issue 36, point 7: usernames are NFKC-normalised and, by default (DAM_USERNAME_CHARACTERS=latin),
 * limited to letters of the Latin script, digits and email symbols: a Cyrillic `bоb` beside `bob` is a
 * 400. Names stored before the rule keep working.
 */
describe('usernames', () => {
  let t: TestApp;
  const bearer = { type: 'bearer' as const };

  beforeAll(async () => {
    t = await TestApp.start();
  });

  afterAll(async () => {
    await t?.close();
  });

  const create = (username: string) =>
    t.http.post('/rest/users').query({ username }).auth(t.adminToken, bearer);

  it('refuses a look-alike of another script with 400 and a clear message', async () => {
    await create('bob').expect(201);
    const refused = await create('b\u043eb').expect(400); // Cyrillic о
    expect(refused.headers['content-type']).toMatch(/^text\/plain/);
    expect(refused.text).toMatch(
      /^a username may hold only letters of the Latin script, the digits 0-9 and /,
    );
  });

  it('stores the NFKC form: full-width ｃａｒｏｌ is carol, and then taken', async () => {
    const created = await create('ｃａｒｏｌ').expect(201);
    expect(created.body.username).toBe('carol');
    await create('carol').expect(409);
  });

  it('refuses a rename to a look-alike too', async () => {
    const user = await t.createUser();
    await t.http
      .put(`/rest/users/${user.id}`)
      .auth(t.adminToken, bearer)
      .send({ username: 'аdmin' })
      .expect(400);
  });

  it('keeps a user stored under an older rule working: login, and updates that keep the name', async () => {
    const user = await t.createUser();
    const legacy = 'legacy-\u0434\u0430\u043c'; // Cyrillic, as an earlier version allowed
    await t.app.get(DataSource).query('UPDATE users SET username = ? WHERE id = ?', [legacy, user.id]);
    await t.http
      .post('/oauth/token')
      .type('form')
      .send({
        grant_type: 'password',
        username: legacy,
        password: user.password,
        client_id: t.clientId,
        client_secret: t.clientSecret,
      })
      .expect(200);
    const updated = await t.http
      .put(`/rest/users/${user.id}`)
      .auth(t.adminToken, bearer)
      .send({ username: legacy, forename: 'Legacy' })
      .expect(200);
    expect(updated.body).toMatchObject({ username: legacy, forename: 'Legacy' });
  });
});
