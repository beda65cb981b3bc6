import { ApplicationUserBootstrap, OAuthClientsService } from '@dam/access';
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { postForm } from './helpers/oauth-form';
import { TestApp, TestUser } from './helpers/test-app';

interface TokenBody {
  access_token: string;
  token_type: string;
  expires_in: number;
  refresh_token?: string;
}

function basic(clientId: string, clientSecret: string): string {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${encode(clientId)}:${encode(clientSecret)}`).toString('base64')}`;
}

describe('OAuth token endpoint', () => {
  let t: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    t = await TestApp.start();
    user = await t.createUser();
  });

  afterAll(async () => {
    await t?.close();
  });

  const credentials = () => ({ client_id: t.clientId, client_secret: t.clientSecret });

  async function passwordGrant(): Promise<TokenBody> {
    const response = await postForm(t, '/oauth/token', {
      grant_type: 'password',
      username: user.username,
      password: user.password,
      ...credentials(),
    }).expect(200);
    return response.body as TokenBody;
  }

  function refresh(refreshToken: string) {
    return postForm(t, '/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      ...credentials(),
    });
  }

  function whoAmI(accessToken: string) {
    return t.http.get('/rest/authenticated-user').auth(accessToken, { type: 'bearer' });
  }

  describe('client_credentials', () => {
    it('accepts credentials in a form-encoded body', async () => {
      const response = await postForm(t, '/oauth/token', {
        grant_type: 'client_credentials',
        ...credentials(),
      }).expect(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.body).toEqual({
        access_token: expect.any(String),
        token_type: 'Bearer',
        expires_in: t.config.accessTokenTtlSeconds,
      });
      const me = await whoAmI(response.body.access_token as string).expect(200);
      expect(me.body.username).toBe('application');
    });

    it('accepts credentials in a JSON body', async () => {
      const response = await t.http
        .post('/oauth/token')
        .send({ grant_type: 'client_credentials', ...credentials() })
        .expect(200);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.body.token_type).toBe('Bearer');
      await whoAmI(response.body.access_token as string).expect(200);
    });

    it('accepts credentials in HTTP Basic', async () => {
      const response = await t.http
        .post('/oauth/token')
        .set('Authorization', basic(t.clientId, t.clientSecret))
        .type('form')
        .send({ grant_type: 'client_credentials' })
        .expect(200);
      expect(response.headers['cache-control']).toBe('no-store');
      await whoAmI(response.body.access_token as string).expect(200);
    });

    it('form-decodes HTTP Basic credentials (RFC 6749 2.3.1)', async () => {
      const application = await t.app.get(ApplicationUserBootstrap).ensureApplicationUser();
      await t.app
        .get(OAuthClientsService)
        .create(application!.id, 'odd', { clientId: 'odd client', clientSecret: 'se:cr+et%/é' });
      const response = await t.http
        .post('/oauth/token')
        .set('Authorization', basic('odd client', 'se:cr+et%/é'))
        .type('form')
        .send({ grant_type: 'client_credentials' })
        .expect(200);
      await whoAmI(response.body.access_token as string).expect(200);
    });

    it('issues a different token each time', async () => {
      const [first, second] = await Promise.all([t.clientCredentialsToken(), t.clientCredentialsToken()]);
      expect(first).not.toBe(second);
    });

    it.each([
      ['a wrong secret', () => ({ client_id: t.clientId, client_secret: `${t.clientSecret}x` })],
      ['an unknown client', () => ({ client_id: 'nobody', client_secret: t.clientSecret })],
      ['no credentials', () => ({})],
    ])('refuses %s with 401 invalid_client', async (_name, body) => {
      const response = await postForm(t, '/oauth/token', {
        grant_type: 'client_credentials',
        ...body(),
      }).expect(401);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.body).toEqual({ error: 'invalid_client', error_description: expect.any(String) });
    });

    it('refuses a wrong secret in HTTP Basic with 401 invalid_client', async () => {
      const response = await t.http
        .post('/oauth/token')
        .set('Authorization', basic(t.clientId, 'wrong'))
        .type('form')
        .send({ grant_type: 'client_credentials' })
        .expect(401);
      expect(response.body.error).toBe('invalid_client');
    });
  });

  describe('grant types', () => {
    it('answers 400 unsupported_grant_type for an unknown grant', async () => {
      const response = await postForm(t, '/oauth/token', {
        grant_type: 'urn:example:magic',
        ...credentials(),
      }).expect(400);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.body).toEqual({
        error: 'unsupported_grant_type',
        error_description: expect.any(String),
      });
    });

    it('answers 400 invalid_request without a grant type', async () => {
      const response = await postForm(t, '/oauth/token', credentials()).expect(400);
      expect(response.body.error).toBe('invalid_request');
    });

    it('answers a malformed body with RFC 6749 JSON, not plain text', async () => {
      const response = await t.http
        .post('/oauth/token')
        .set('Content-Type', 'application/json')
        .send('{"grant_type": "client_credentials",')
        .expect(400);
      expect(response.headers['content-type']).toMatch(/application\/json/);
      expect(response.body).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
    });
  });

  describe('password', () => {
    it('issues an access and a refresh token for the right password', async () => {
      const response = await postForm(t, '/oauth/token', {
        grant_type: 'password',
        username: user.username,
        password: user.password,
        ...credentials(),
      }).expect(200);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.body).toEqual({
        access_token: expect.any(String),
        token_type: 'Bearer',
        expires_in: t.config.accessTokenTtlSeconds,
        refresh_token: expect.any(String),
      });
      const me = await whoAmI(response.body.access_token as string).expect(200);
      expect(me.body.username).toBe(user.username);
    });

    it.each([
      ['a wrong password', () => ({ username: user.username, password: `${user.password}!` })],
      ['an unknown user', () => ({ username: 'no-such-user', password: 'whatever-password' })],
      ['a user without a password', () => ({ username: 'application', password: 'whatever-password' })],
    ])('answers 400 invalid_grant for %s', async (_name, body) => {
      const response = await postForm(t, '/oauth/token', {
        grant_type: 'password',
        ...body(),
        ...credentials(),
      }).expect(400);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.body).toEqual({ error: 'invalid_grant', error_description: expect.any(String) });
    });

    it('answers 400 invalid_request without a password', async () => {
      const response = await postForm(t, '/oauth/token', {
        grant_type: 'password',
        username: user.username,
        ...credentials(),
      }).expect(400);
      expect(response.body.error).toBe('invalid_request');
    });
  });

  describe('refresh_token', () => {
    it('rotates: a new pair, and the used refresh token is refused afterwards', async () => {
      const first = await passwordGrant();
      const second = (await refresh(first.refresh_token!).expect(200)).body as TokenBody;
      expect(second.access_token).not.toBe(first.access_token);
      expect(second.refresh_token).toEqual(expect.any(String));
      expect(second.refresh_token).not.toBe(first.refresh_token);
      const me = await whoAmI(second.access_token).expect(200);
      expect(me.body.username).toBe(user.username);

      const replay = await refresh(first.refresh_token!).expect(400);
      expect(replay.body.error).toBe('invalid_grant');
    });

    it('reusing a rotated refresh token revokes the newer tokens of its family', async () => {
      const first = await passwordGrant();
      const second = (await refresh(first.refresh_token!).expect(200)).body as TokenBody;
      const third = (await refresh(second.refresh_token!).expect(200)).body as TokenBody;
      await whoAmI(third.access_token).expect(200);

      await refresh(first.refresh_token!).expect(400);

      await whoAmI(third.access_token).expect(401);
      await whoAmI(second.access_token).expect(401);
      await whoAmI(first.access_token).expect(401);
      expect((await refresh(third.refresh_token!).expect(400)).body.error).toBe('invalid_grant');
    });

    it('a reused family leaves other logins of the same user alone', async () => {
      const victim = await passwordGrant();
      const other = await passwordGrant();
      await refresh(victim.refresh_token!).expect(200);
      await refresh(victim.refresh_token!).expect(400);
      await whoAmI(other.access_token).expect(200);
      await refresh(other.refresh_token!).expect(200);
    });

    it('of concurrent refreshes with one token, exactly one succeeds', async () => {
      const first = await passwordGrant();
      const responses = await Promise.all(Array.from({ length: 5 }, () => refresh(first.refresh_token!)));
      expect(responses.map((response) => response.status).sort()).toEqual([200, 400, 400, 400, 400]);
    });

    it('refuses an unknown refresh token and an access token used as one', async () => {
      const tokens = await passwordGrant();
      expect((await refresh('x'.repeat(43)).expect(400)).body.error).toBe('invalid_grant');
      expect((await refresh(tokens.access_token).expect(400)).body.error).toBe('invalid_grant');
    });

    it('refuses a refresh token presented by another client', async () => {
      const tokens = await passwordGrant();
      const application = await t.app.get(ApplicationUserBootstrap).ensureApplicationUser();
      const { client, secret } = await t.app.get(OAuthClientsService).create(application!.id, 'other');
      const response = await postForm(t, '/oauth/token', {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        client_id: client.clientId,
        client_secret: secret,
      }).expect(400);
      expect(response.body.error).toBe('invalid_grant');
      await refresh(tokens.refresh_token!).expect(200);
    });
  });

  describe('bearer tokens', () => {
    it('a garbage token is 401 with WWW-Authenticate: Bearer error="invalid_token"', async () => {
      const response = await whoAmI('garbage-garbage-garbage-garbage').expect(401);
      expect(response.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
      expect(response.headers['content-type']).toMatch(/^text\/plain/);
    });

    it.each(['', 'short', 'x'.repeat(500)])('a token of odd length (%#) is 401', async (token) => {
      await t.http.get('/rest/authenticated-user').set('Authorization', `Bearer ${token}`).expect(401);
    });

    it('a refresh token is not accepted as an access token', async () => {
      const tokens = await passwordGrant();
      await whoAmI(tokens.refresh_token!).expect(401);
    });

    it('are stored only as SHA-256 hashes', async () => {
      const tokens = await passwordGrant();
      const rows = (await t.app.get(DataSource).query('SELECT * FROM oauth_tokens')) as Array<
        Record<string, unknown>
      >;
      const dump = JSON.stringify(rows);
      expect(dump).not.toContain(tokens.access_token);
      expect(dump).not.toContain(tokens.refresh_token);
      const hashes = rows.map((row) => row.token_hash);
      expect(hashes).toContain(createHash('sha256').update(tokens.access_token).digest('hex'));
      expect(hashes).toContain(createHash('sha256').update(tokens.refresh_token!).digest('hex'));
    });
  });

  describe('revocation', () => {
    it('a revoked access token is 401', async () => {
      const tokens = await passwordGrant();
      await whoAmI(tokens.access_token).expect(200);
      await postForm(t, '/oauth/revoke', { token: tokens.access_token, ...credentials() }).expect(200);
      const response = await whoAmI(tokens.access_token).expect(401);
      expect(response.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    });

    it('revoking a refresh token revokes its family', async () => {
      const tokens = await passwordGrant();
      await t.http
        .post('/oauth/revoke')
        .set('Authorization', basic(t.clientId, t.clientSecret))
        .send({ token: tokens.refresh_token })
        .expect(200);
      await refresh(tokens.refresh_token!).expect(400);
      await whoAmI(tokens.access_token).expect(401);
    });

    it('an unknown token revokes nothing and answers 200 (RFC 7009)', async () => {
      await postForm(t, '/oauth/revoke', { token: 'never-issued-token-value', ...credentials() }).expect(200);
    });

    it('another client cannot revoke the token', async () => {
      const tokens = await passwordGrant();
      const application = await t.app.get(ApplicationUserBootstrap).ensureApplicationUser();
      const { client, secret } = await t.app.get(OAuthClientsService).create(application!.id, 'revoker');
      await postForm(t, '/oauth/revoke', {
        token: tokens.access_token,
        client_id: client.clientId,
        client_secret: secret,
      }).expect(200);
      await whoAmI(tokens.access_token).expect(200);
    });

    it('requires client authentication', async () => {
      const tokens = await passwordGrant();
      const response = await postForm(t, '/oauth/revoke', { token: tokens.access_token }).expect(401);
      expect(response.body.error).toBe('invalid_client');
      await whoAmI(tokens.access_token).expect(200);
    });

    it('answers 400 invalid_request without a token', async () => {
      const response = await postForm(t, '/oauth/revoke', credentials()).expect(400);
      expect(response.body.error).toBe('invalid_request');
    });
  });
});
