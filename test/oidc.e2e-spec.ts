import { accessLevelRequests, Created } from './helpers/access-level-requests';
import { bearerRequests, pathOf } from './helpers/bearer-requests';
import { createTestDatabase, MATRIX, TestDatabase } from './helpers/databases';
import { AUDIENCE, OidcIssuer } from './helpers/oidc-issuer';
import { TestApp, TestUser } from './helpers/test-app';

/** The bound of issue 14: another instance follows a change within 2 s. */
const WITHIN_MS = 2000;

/**
 * Issue 32: JWT access tokens of an OpenID Provider (oidc-provider on loopback, the client_credentials
 * grant with a resource indicator) act as the user their claims name, created on first use; the groups
 * claim sets the groups DAM_OIDC_GROUP_MAP manages and admin. The refusals: oidc-refusals.e2e-spec.ts.
 */
describe(`single sign-on: users and groups from an OpenID Provider's tokens (${MATRIX})`, () => {
  let database: TestDatabase;
  let issuer: OidcIssuer;
  let t: TestApp;
  let editors: Created;
  let viewers: Created;
  let localOnly: Created;
  /** Assets in the editors' level L1, the viewers' level L2, and both. */
  const assets: Record<'inL1' | 'inL2' | 'inBoth', string> = { inL1: '', inL2: '', inBoth: '' };
  const http = bearerRequests(() => t);
  const env = (): Record<string, string> => ({
    DAM_OIDC_ISSUER: issuer.issuer,
    DAM_OIDC_AUDIENCE: AUDIENCE,
    // The groups created below get ids 1, 2 and 3 in the fresh database.
    DAM_OIDC_GROUP_MAP: 'dam-editors=1,dam-viewers=2',
    DAM_OIDC_ADMIN_GROUPS: 'dam-admins',
  });
  const me = async (token: string) => (await http.get('/rest/authenticated-user', token).expect(200)).body;

  beforeAll(async () => {
    database = await createTestDatabase(MATRIX, { migrated: true });
    issuer = await OidcIssuer.start();
    t = await TestApp.start({ database, env: env() });
    const setup = accessLevelRequests(() => t);
    const l1 = await setup.createLevel('L1');
    const l2 = await setup.createLevel('L2');
    editors = await setup.createGroup('editors', { [l1.url]: ['view', 'download'] });
    viewers = await setup.createGroup('viewers', { [l2.url]: ['view'] });
    localOnly = await setup.createGroup('local only');
    expect([editors.id, viewers.id, localOnly.id]).toEqual([1, 2, 3]);
    const create = async (levels: Created[]) =>
      pathOf(
        (
          await http
            .post('/rest/assets', t.adminToken, { accessLevels: levels.map(({ id }) => ({ id })) })
            .expect(201)
        ).body.url as string,
      );
    assets.inL1 = await create([l1]);
    assets.inL2 = await create([l2]);
    assets.inBoth = await create([l1, l2]);
  });

  afterAll(async () => {
    await t?.close();
    await issuer?.stop();
    await database?.drop();
  });

  it('a token from the provider creates its user, with email and names; the password grant refuses them', async () => {
    const token = await issuer.issue({
      preferred_username: 'ada',
      email: 'ada@example.com',
      given_name: 'Ada',
      family_name: 'Lovelace',
      groups: ['dam-editors', 'unmapped'],
    });
    expect(await me(token)).toMatchObject({
      username: 'ada',
      emailAddress: 'ada@example.com',
      forename: 'Ada',
      surname: 'Lovelace',
      groupIds: [editors.id],
      isAdmin: false,
    });
    const grant = await t.http.post('/oauth/token').type('form').send({
      grant_type: 'password',
      username: 'ada',
      password: '',
      client_id: t.clientId,
      client_secret: t.clientSecret,
    });
    expect(grant.status).toBe(400);
    const guessed = await t.http.post('/oauth/token').type('form').send({
      grant_type: 'password',
      username: 'ada',
      password: 'anything at all',
      client_id: t.clientId,
      client_secret: t.clientSecret,
    });
    expect(guessed.status).toBe(400);
    expect(guessed.body.error).toBe('invalid_grant');
  });

  it('an existing local user with that username is the same user; the opaque tokens keep working', async () => {
    const local = await t.createUser({ username: 'bob' });
    const token = await issuer.issue({ preferred_username: 'bob', email: 'bob@example.com' });
    expect(await me(token)).toMatchObject({ id: local.id, username: 'bob', emailAddress: 'bob@example.com' });
    expect((await me(local.token)).id).toBe(local.id);
  });

  it('mapped groups follow each new token; groups outside the map stay; a token without the claim changes nothing', async () => {
    const first = await issuer.issue({ preferred_username: 'cleo', groups: ['dam-editors'] });
    const cleo = await me(first);
    expect(cleo.groupIds).toEqual([editors.id]);
    // An admin adds a group the map does not manage.
    await http
      .put(`/rest/users/${cleo.id}`, t.adminToken, { groupIds: [editors.id, localOnly.id] })
      .expect(200);
    const second = await issuer.issue({ preferred_username: 'cleo', groups: ['dam-viewers'] });
    expect((await me(second)).groupIds).toEqual([viewers.id, localOnly.id]);
    const withoutClaim = await issuer.issue({ preferred_username: 'cleo' });
    expect((await me(withoutClaim)).groupIds).toEqual([viewers.id, localOnly.id]);
    const empty = await issuer.issue({ preferred_username: 'cleo', groups: [] });
    expect((await me(empty)).groupIds).toEqual([localOnly.id]);
  });

  it('DAM_OIDC_ADMIN_GROUPS grants admin and takes it away the same way', async () => {
    const admin = await issuer.issue({ preferred_username: 'dora', groups: ['dam-admins'] });
    expect((await me(admin)).isAdmin).toBe(true);
    await http.get('/rest/users', admin).expect(200);
    expect((await me(await issuer.issue({ preferred_username: 'dora' }))).isAdmin).toBe(true);
    const demoted = await issuer.issue({ preferred_username: 'dora', groups: ['dam-editors'] });
    expect((await me(demoted)).isAdmin).toBe(false);
    await http.get('/rest/users', demoted).expect(403);
  });

  it('the userId acting rules are unchanged: only admins act as others', async () => {
    const other = await t.createUser();
    const plain = await issuer.issue({ preferred_username: 'emil', groups: [] });
    const emil = await me(plain);
    await http.get(`/rest/authenticated-user?userId=${other.id}`, plain).expect(403);
    await http.get(`/rest/authenticated-user?userId=${emil.id}`, plain).expect(200);
    const admin = await issuer.issue({ preferred_username: 'emil', groups: ['dam-admins'] });
    expect((await http.get(`/rest/authenticated-user?userId=${other.id}`, admin).expect(200)).body.id).toBe(
      other.id,
    );
  });

  it('an OIDC user sees exactly what a local user in the same groups sees (GET and search)', async () => {
    const local = await t.createUser();
    const observe = async (token: string) => ({
      gets: await Promise.all(
        Object.values(assets).map(async (path) => (await http.get(path, token)).status),
      ),
      found: (
        (await http.get('/rest/asset-search?pageSize=100', token).expect(200)).body as Array<{ id: number }>
      )
        .map(({ id }) => id)
        .sort((a, b) => a - b),
    });
    for (const [claimed, group] of [
      [['dam-editors'], [editors]],
      [['dam-viewers'], [viewers]],
      [
        ['dam-editors', 'dam-viewers'],
        [editors, viewers],
      ],
      [[], []],
    ] as Array<[string[], Created[]]>) {
      await accessLevelRequests(() => t).joinGroups(local as TestUser, group);
      const oidc = await issuer.issue({ preferred_username: 'fay', groups: claimed });
      const seen = await observe(oidc);
      expect(seen).toEqual(await observe(local.token));
      expect(seen.gets.filter((status) => status === 200)).toHaveLength(
        group.length === 0 ? 0 : group.length === 2 ? 3 : 2,
      );
    }
  });

  it('the OpenAPI document lists the OpenID Connect scheme beside the bearer and OAuth 2 ones', async () => {
    const document = (await t.http.get('/docs/openapi.json').expect(200)).body;
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual(['bearer', 'oauth2', 'oidc']);
    expect(document.components.securitySchemes.oidc).toMatchObject({
      type: 'openIdConnect',
      openIdConnectUrl: `${issuer.issuer}/.well-known/openid-configuration`,
    });
    expect(document.paths['/rest/assets'].post.security).toEqual([
      { bearer: [] },
      { oauth2: [] },
      { oidc: [] },
    ]);
  });

  it('a changed group claim shows on another instance within 2 s', async () => {
    // B boots last (it takes the OAuth client over): only OIDC and its own tokens are used on it after.
    const b = await TestApp.start({ database, env: env() });
    const onB = bearerRequests(() => b);
    try {
      const before = await issuer.issue({ preferred_username: 'gus', groups: ['dam-editors'] });
      await onB.get(assets.inL1, before).expect(200);
      const after = await issuer.issue({ preferred_username: 'gus', groups: [] });
      await http.get(assets.inL1, after).expect(404);
      const started = Date.now();
      while ((await onB.get(assets.inL1, before)).status === 200) {
        if (Date.now() - started > WITHIN_MS + 1000) throw new Error(`not seen within ${WITHIN_MS} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(Date.now() - started).toBeLessThanOrEqual(WITHIN_MS);
    } finally {
      await b.close();
    }
  });
});
