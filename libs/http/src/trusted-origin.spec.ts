import type { Request, Response } from 'express';
import { AppConfig } from '@dam/core';
import { configuredOrigin, recordedOriginOf, TrustedOrigin } from './trusted-origin';

/** Runs the middleware on a request naming `host`, arrived on `localAddress`: the recorded origin or the 400. */
function judge(
  env: Record<string, string>,
  headers: Record<string, string>,
  localAddress = '127.0.0.1',
  path = '/rest',
): { origin?: string; refusal?: string } {
  const request = {
    path,
    protocol: 'http',
    socket: { localAddress },
    header: (name: string) => headers[name.toLowerCase()],
  } as unknown as Request;
  let refusal: string | undefined;
  const response = {
    status: () => response,
    type: () => response,
    send: (text: string) => {
      refusal = text;
    },
  } as unknown as Response;
  let passed = false;
  new TrustedOrigin(AppConfig.fromEnv(env)).middleware()(request, response, () => {
    passed = true;
  });
  return passed ? { origin: recordedOriginOf(request) } : { refusal };
}

describe('TrustedOrigin', () => {
  it.each([
    ['10.1.2.3:3000', '::ffff:10.1.2.3', 'http://10.1.2.3:3000'],
    ['10.1.2.3', '10.1.2.3', 'http://10.1.2.3'],
    ['[fd00::5]:3000', 'fd00:0::5', 'http://[fd00::5]:3000'],
    ['localhost:8080', '10.1.2.3', 'http://localhost:8080'],
  ])(
    'by default accepts Host %s on a connection to %s (the address it listens on)',
    (host, local, origin) => {
      expect(judge({}, { host }, local)).toEqual({ origin });
    },
  );

  it.each([
    ['10.1.2.4:3000', '10.1.2.3'],
    ['evil.example', '10.1.2.3'],
    ['[::ffff:127.0.0.1]', '10.1.2.3'],
  ])('by default refuses Host %s on a connection to %s', (host, local) => {
    expect(judge({}, { host }, local).refusal).toBe(`Host "${host}" is not a name of this service`);
  });

  it('reads the port of an entry: none allows any, one allows that one (80 and 443 when the Host has none)', () => {
    const env = { DAM_ALLOWED_HOSTS: 'a.example,b.example:443' };
    expect(judge(env, { host: 'a.example:9' }).origin).toBe('http://a.example:9');
    expect(judge(env, { host: 'b.example' }).refusal).toBeDefined();
    expect(judge(env, { host: 'b.example:443' }).origin).toBe('http://b.example:443');
    const proxied = { ...env, DAM_TRUST_PROXY: 'true' };
    expect(judge(proxied, { 'x-forwarded-host': 'b.example', 'x-forwarded-proto': 'https' }).origin).toBe(
      'https://b.example',
    );
  });

  it('exempts /health, /health/* and /metrics, which get the configured origin', () => {
    for (const path of ['/health', '/health/live', '/metrics'])
      expect(judge({}, { host: 'evil.example' }, '10.0.0.1', path)).toEqual({
        origin: 'http://localhost:3000',
      });
    expect(judge({}, { host: 'evil.example' }, '10.0.0.1', '/healthz').refusal).toBeDefined();
  });

  it.each([
    [{}, 'http://localhost:3000'],
    [{ PORT: '8080' }, 'http://localhost:8080'],
    [{ DAM_ALLOWED_HOSTS: 'dam.example.com:8443,other.example' }, 'http://dam.example.com:8443'],
    [
      { DAM_ALLOWED_HOSTS: 'dam.example.com', DAM_PUBLIC_URL: 'https://dam.example.com/base' },
      'https://dam.example.com/base',
    ],
  ])('the configured origin of %j is %s', (env, origin) => {
    expect(configuredOrigin(AppConfig.fromEnv(env))).toBe(origin);
  });

  it.each(['dam.example.com/path', 'http://dam.example.com', 'dam.example.com:99999', ' , '])(
    'refuses DAM_ALLOWED_HOSTS=%s at boot',
    (value) => {
      expect(() => AppConfig.fromEnv({ DAM_ALLOWED_HOSTS: value })).toThrow(/DAM_ALLOWED_HOSTS/);
    },
  );
});
