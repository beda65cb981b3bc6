import type { Test } from 'supertest';
import { TestApp } from './test-app';

type Method = 'get' | 'post' | 'put' | 'delete';

/** Requests carrying a bearer token; bodies are sent as JSON. */
export function bearerRequests(app: () => TestApp) {
  const send = (method: Method, path: string, token: string): Test =>
    app().http[method](path).auth(token, { type: 'bearer' });
  return {
    get: (path: string, token: string) => send('get', path, token),
    post: (path: string, token: string, body: object) => send('post', path, token).send(body),
    put: (path: string, token: string, body: object) => send('put', path, token).send(body),
    delete: (path: string, token: string) => send('delete', path, token),
  };
}

/** The path of an absolute URL the service returned. */
export function pathOf(url: string): string {
  return new URL(url).pathname;
}

/** One "no token -> 401" case per route. */
export function itRefusesRequestsWithoutAToken(app: () => TestApp, routes: Array<[string, string]>): void {
  it.each(routes)('%s %s without a token is 401', async (method, path) => {
    const response = await app().http[method.toLowerCase() as Method](path).expect(401);
    expect(response.headers['www-authenticate']).toBe('Bearer');
  });
}
