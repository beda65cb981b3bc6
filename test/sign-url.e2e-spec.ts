import { UrlSigner } from '@dam/storage';
import { bearerRequests, itRefusesRequestsWithoutAToken } from './helpers/bearer-requests';
import { TestApp, TestUser } from './helpers/test-app';

jest.setTimeout(60_000);

describe('signed URLs', () => {
  let t: TestApp;
  let user: TestUser;
  const http = bearerRequests(() => t);

  beforeAll(async () => {
    t = await TestApp.start();
    user = await t.createUser();
  });
  afterAll(() => t?.close());

  /** Signs `path` (below the REST root) as the holder of `token`; returns the signed URL's path and query. */
  async function sign(path: string, token = user.token, expirySeconds = 60): Promise<string> {
    const response = await http
      .post('/rest/sign-url', token, { url: `${t.baseUrl}${path}`, expirySeconds })
      .expect(303);
    const location = response.headers.location as string;
    expect(response.body).toEqual({ url: location });
    const url = new URL(location);
    expect(url.origin).toBe(t.baseUrl);
    return `${url.pathname}${url.search}`;
  }

  /** The path and query with one parameter changed (or removed when `value` is undefined). */
  function withParam(signed: string, name: string, value: string | undefined): string {
    const url = new URL(signed, t.baseUrl);
    if (value === undefined) url.searchParams.delete(name);
    else url.searchParams.set(name, value);
    return `${url.pathname}${url.search}`;
  }

  it('answers 303 to the URL with timestamp, key and the signer', async () => {
    const before = Math.floor(Date.now() / 1000);
    const signed = new URL(await sign('/rest/authenticated-user?x=1', user.token, 120), t.baseUrl);
    expect(signed.pathname).toBe('/rest/authenticated-user');
    expect(signed.searchParams.get('x')).toBe('1');
    expect(signed.searchParams.get('signer')).toBe(String(user.id));
    expect(signed.searchParams.get('key')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const timestamp = Number(signed.searchParams.get('timestamp'));
    expect(timestamp).toBeGreaterThanOrEqual(before + 120);
    expect(timestamp).toBeLessThanOrEqual(before + 122);
  });

  it('a signed URL works without a token and acts as the signer (GET and HEAD)', async () => {
    const signed = await sign('/rest/authenticated-user');
    const response = await t.http.get(signed).expect(200);
    expect(response.body.username).toBe(user.username);
    await t.http.head(signed).expect(200);
  });

  it('refuses any change to a signed URL: 401 the signed URL is invalid', async () => {
    const signed = await sign('/rest/authenticated-user');
    const key = new URL(signed, t.baseUrl).searchParams.get('key') ?? '';
    const timestamp = Number(new URL(signed, t.baseUrl).searchParams.get('timestamp'));
    const tampered = [
      withParam(signed, 'key', `${key.slice(0, -2)}${key.endsWith('AA') ? 'BB' : 'AA'}`),
      withParam(signed, 'timestamp', String(timestamp + 3600)),
      withParam(signed, 'signer', '1'),
      withParam(signed, 'extra', 'param'),
      withParam(signed, 'signer', undefined),
      signed.replace('/rest/authenticated-user', `/rest/users/${user.id}`),
      `${signed}&key=${key}`,
    ];
    for (const url of tampered) {
      const response = await t.http.get(url).expect(401);
      expect(response.text).toBe('the signed URL is invalid');
    }
  });

  it('a signature is for reads only: other methods still need a token', async () => {
    const signed = await sign('/rest/temp-chunked-files');
    const response = await t.http.post(signed).expect(401);
    expect(response.text).toMatch(/access token is required/);
  });

  it('an expired signed URL is refused: 401 the signed URL has expired', async () => {
    const signed = await sign('/rest/authenticated-user', user.token, 1);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const response = await t.http.get(signed).expect(401);
    expect(response.text).toBe('the signed URL has expired');
  });

  it("carries exactly the signer's permissions: a URL they cannot read stays forbidden (403)", async () => {
    const signed = await sign('/rest/users');
    await t.http.get(signed).expect(403);
    const asAdmin = await sign('/rest/users', t.adminToken);
    await t.http.get(asAdmin).expect(200);
  });

  it('a signer acting as someone else (?userId) follows the impersonation rules', async () => {
    const other = await t.createUser();
    const signedByUser = await sign(`/rest/authenticated-user?userId=${other.id}`);
    await t.http.get(signedByUser).expect(403);
    const signedByApplication = await sign(`/rest/authenticated-user?userId=${other.id}`, t.adminToken);
    expect((await t.http.get(signedByApplication).expect(200)).body.username).toBe(other.username);
  });

  it('a deleted signer invalidates their signed URLs', async () => {
    const doomed = await t.createUser();
    const signed = await sign('/rest/authenticated-user', doomed.token);
    await http.delete(`/rest/users/${doomed.id}`, t.adminToken).expect(204);
    expect((await t.http.get(signed).expect(401)).text).toBe('the signed URL is invalid');
  });

  it.each([
    ['a foreign origin', { url: 'https://example.com/rest/users', expirySeconds: 60 }],
    ['a URL outside the REST root', { url: 'BASE/oauth/token', expirySeconds: 60 }],
    ['a path escaping the REST root', { url: 'BASE/rest/../health', expirySeconds: 60 }],
    ['a relative URL', { url: '/rest/users', expirySeconds: 60 }],
    ['credentials in the URL', { url: 'BASE/rest/users', expirySeconds: 60, userinfo: true }],
    ['no url', { expirySeconds: 60 }],
    ['a non-string url', { url: 42, expirySeconds: 60 }],
    ['no expirySeconds', { url: 'BASE/rest/users' }],
    ['negative expirySeconds', { url: 'BASE/rest/users', expirySeconds: -5 }],
    ['fractional expirySeconds', { url: 'BASE/rest/users', expirySeconds: 1.5 }],
    ['expirySeconds over a week', { url: 'BASE/rest/users', expirySeconds: 7 * 24 * 3600 + 1 }],
    ['expirySeconds as a string', { url: 'BASE/rest/users', expirySeconds: '60' }],
  ])('refuses %s: 400 with a plain-text message', async (_case, body: Record<string, unknown>) => {
    const { userinfo, ...rest } = body;
    if (typeof rest.url === 'string') rest.url = rest.url.replace('BASE', t.baseUrl);
    if (userinfo === true && typeof rest.url === 'string')
      rest.url = rest.url.replace('http://', 'http://a:b@');
    const response = await http.post('/rest/sign-url', user.token, rest).expect(400);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.text.length).toBeGreaterThan(0);
  });

  it('names the field when the URL is of another origin', async () => {
    const response = await http
      .post('/rest/sign-url', user.token, { url: 'http://elsewhere.invalid/rest/users', expirySeconds: 60 })
      .expect(400);
    expect(response.text).toBe('url: http://elsewhere.invalid/rest/users is not a URL of this service');
  });

  describe('expirySeconds 0 (Asset Bank: never expires)', () => {
    const A_CENTURY_MS = 100 * 365 * 24 * 3600 * 1000;

    it('means the longest lifetime (a week) by default, and timestamp 0 is refused', async () => {
      const before = Math.floor(Date.now() / 1000);
      const signed = new URL(await sign('/rest/authenticated-user', user.token, 0), t.baseUrl);
      const timestamp = Number(signed.searchParams.get('timestamp'));
      expect(timestamp).toBeGreaterThanOrEqual(before + 7 * 24 * 3600);
      expect(timestamp).toBeLessThanOrEqual(before + 7 * 24 * 3600 + 2);
      await t.http.get(`${signed.pathname}${signed.search}`).expect(200);

      // A never-expiring URL made with the same secret (as when the flag was on) is not honoured.
      const never = t.app.get(UrlSigner).sign(`/rest/authenticated-user?signer=${user.id}`, 0);
      expect(new URL(never, t.baseUrl).searchParams.get('timestamp')).toBe('0');
      expect((await t.http.get(never).expect(401)).text).toBe('the signed URL has expired');
    });

    it('never expires with DAM_SIGNED_URL_ALLOW_NEVER=true: timestamp 0, accepted', async () => {
      const allowing = await TestApp.start({ env: { DAM_SIGNED_URL_ALLOW_NEVER: 'true' } });
      try {
        const signer = await allowing.createUser();
        const response = await allowing.http
          .post('/rest/sign-url')
          .auth(signer.token, { type: 'bearer' })
          .send({ url: `${allowing.baseUrl}/rest/authenticated-user`, expirySeconds: 0 })
          .expect(303);
        const signed = new URL(response.headers.location as string);
        expect(signed.searchParams.get('timestamp')).toBe('0');
        const path = `${signed.pathname}${signed.search}`;
        expect((await allowing.http.get(path).expect(200)).body.username).toBe(signer.username);
        expect(allowing.app.get(UrlSigner).verify(path, 'GET', Date.now() + A_CENTURY_MS)).toBe('valid');
        // Other lifetimes still expire.
        const timed = await allowing.http
          .post('/rest/sign-url')
          .auth(signer.token, { type: 'bearer' })
          .send({ url: `${allowing.baseUrl}/rest/authenticated-user`, expirySeconds: 60 })
          .expect(303);
        expect(
          Number(new URL(timed.headers.location as string).searchParams.get('timestamp')),
        ).toBeGreaterThan(0);
      } finally {
        await allowing.close();
      }
    });
  });

  it('accepts the REST root itself and up to a week', async () => {
    await http
      .post('/rest/sign-url', user.token, { url: `${t.baseUrl}/rest`, expirySeconds: 7 * 24 * 3600 })
      .expect(303);
  });

  it('signing itself needs a token (or a trusted network)', async () => {
    await t.http
      .post('/rest/sign-url')
      .send({ url: `${t.baseUrl}/rest/users`, expirySeconds: 60 })
      .expect(401);
  });

  it('a non-admin asking to sign as another user (?userId) is refused: 403', async () => {
    const other = await t.createUser();
    await http
      .post(`/rest/sign-url?userId=${other.id}`, user.token, {
        url: `${t.baseUrl}/rest/users`,
        expirySeconds: 60,
      })
      .expect(403);
  });

  itRefusesRequestsWithoutAToken(() => t, [['POST', '/rest/sign-url']]);
});
