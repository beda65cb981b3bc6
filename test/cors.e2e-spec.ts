import { AppConfig, ConfigError } from '@dam/core';
import { TestApp } from './helpers/test-app';

jest.setTimeout(120_000);

const ORIGIN = 'https://app.example.com';

describe('CORS', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start({ env: { DAM_CORS_ORIGINS: `${ORIGIN}, http://localhost:5173` } });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('answers a preflight from a listed origin', async () => {
    const response = await t.http
      .options('/rest/assets/1')
      .set('Origin', ORIGIN)
      .set('Access-Control-Request-Method', 'PUT')
      .set('Access-Control-Request-Headers', 'authorization, content-type, if-match')
      .expect(204);
    expect(response.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(response.headers['access-control-allow-methods']).toContain('PUT');
    expect(response.headers['access-control-allow-headers']).toBe('authorization, content-type, if-match');
    expect(response.headers['access-control-max-age']).toBe('600');
    expect(response.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('lets a listed origin read the answer and its Location, ETag, Link and Retry-After', async () => {
    const response = await t.http
      .get('/rest/categories')
      .auth(t.adminToken, { type: 'bearer' })
      .set('Origin', 'http://localhost:5173')
      .expect(200);
    expect(response.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(response.headers['vary']).toContain('Origin');
    const exposed = (response.headers['access-control-expose-headers'] as string).split(',');
    expect(exposed).toEqual(
      expect.arrayContaining(['Location', 'ETag', 'Link', 'Retry-After', 'X-Total-Count']),
    );
  });

  it('leaves an OPTIONS that is no preflight to its route: tus discovery keeps Tus-Version and Tus-Extension', async () => {
    for (const origin of [undefined, ORIGIN]) {
      const options = t.http.options('/rest/tus').auth(t.adminToken, { type: 'bearer' });
      if (origin !== undefined) options.set('Origin', origin);
      const response = await options.expect(204);
      expect(response.headers['tus-version']).toBe('1.0.0');
      expect(response.headers['tus-extension']?.split(',')).toContain('creation');
      expect(response.headers['access-control-allow-origin']).toBe(origin);
    }
    // Another route's OPTIONS lists its methods, as without DAM_CORS_ORIGINS.
    const assets = await t.http.options('/rest/assets').auth(t.adminToken, { type: 'bearer' }).expect(204);
    expect(assets.headers['allow']).toContain('POST');
    // A preflight of a tus request is still the CORS middleware's, without a token.
    const preflight = await t.http
      .options('/rest/tus')
      .set('Origin', ORIGIN)
      .set('Access-Control-Request-Method', 'POST')
      .expect(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(preflight.headers['tus-version']).toBeUndefined();
  });

  it('gives another origin no CORS headers', async () => {
    const response = await t.http
      .get('/rest/categories')
      .auth(t.adminToken, { type: 'bearer' })
      .set('Origin', 'https://evil.example')
      .expect(200);
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('DAM_CORS_ORIGINS takes origins or *, nothing else', () => {
    expect(AppConfig.fromEnv({ DAM_CORS_ORIGINS: '*' }).corsOrigins).toEqual(['*']);
    expect(AppConfig.fromEnv({}).corsOrigins).toEqual([]);
    expect(AppConfig.fromEnv({ DAM_CORS_ORIGINS: 'https://a.example/ ,http://b:81' }).corsOrigins).toEqual([
      'https://a.example',
      'http://b:81',
    ]);
    for (const bad of ['https://a.example/app', 'a.example', 'ftp://a.example', '*, https://a.example']) {
      expect(() => AppConfig.fromEnv({ DAM_CORS_ORIGINS: bad })).toThrow(ConfigError);
    }
  });
});
