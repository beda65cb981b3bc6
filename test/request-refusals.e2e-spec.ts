import * as net from 'node:net';
import { TestApp, TestUser } from './helpers/test-app';

/**
 * Issue 36, the flood run: a loop of refused bodies must cost the service little. A refused body's answer
 * closes the connection (the rest of a 1 MB body is never read), a declared length past the limit is
 * refused from the header alone for every media type, and past DAM_BODY_REFUSALS_PER_MINUTE refusals an
 * address or a token gets 429 before its body is read. Clients are told apart by X-Forwarded-For
 * (DAM_TRUST_PROXY). Before the fix: the rest was read off on a kept-alive connection, a form of a
 * declared 10 MB was read to its end before the 413, and refusals were never counted.
 */
describe('refused request bodies', () => {
  let t: TestApp;
  let user: TestUser;
  let other: TestUser;
  let refused: TestUser;

  beforeAll(async () => {
    t = await TestApp.start({ env: { DAM_TRUST_PROXY: 'true', DAM_BODY_REFUSALS_PER_MINUTE: '3' } });
    user = await t.createUser();
    other = await t.createUser();
    refused = await t.createUser();
  });

  afterAll(async () => {
    await t?.close();
  });

  const lightboxes = (owner: TestUser) => `/rest/users/${owner.id}/lightboxes`;
  const manyKeys = `{"name":"many keys",${Array.from({ length: 80_000 }, (_, i) => `"k${i}":1`).join(',')}}`;

  /** Raw HTTP/1.1 head of a request with a body (supertest cannot send part of a body, or pipeline). */
  function head(method: string, path: string, headers: Record<string, string | number>): string {
    const host = new URL(t.baseUrl).host;
    const lines = Object.entries({ host, ...headers }).map(([name, value]) => `${name}: ${value}`);
    return `${method} ${path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`;
  }

  /**
   * Writes `first`; once an answer has come, writes `then` on the same connection (unless it is closed).
   * Resolves with all the server sent, when the server closes the connection or a second answer comes.
   */
  function exchange(first: string, then = ''): Promise<string> {
    const { port } = new URL(t.baseUrl);
    return new Promise((resolve) => {
      const socket = net.connect(Number(port), '127.0.0.1');
      let received = '';
      let answered = false;
      const done = () => {
        socket.destroy();
        resolve(received);
      };
      socket.on('error', () => undefined);
      socket.on('close', done);
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString('latin1');
        if (answersIn(received) >= 2) done();
        else if (!answered && /\r\n\r\n[^]*$/.test(received) && then !== '') {
          answered = true;
          socket.write(then);
        }
      });
      socket.write(first);
    });
  }

  const answersIn = (text: string) => text.match(/^HTTP\/1\.1 \d{3}/gm)?.length ?? 0;

  it('closes the connection after refusing a body: the rest is not read, no next request is answered', async () => {
    const body = Buffer.from(manyKeys);
    const start = body.subarray(0, 64 * 1024).toString('latin1');
    const rest = body.subarray(64 * 1024).toString('latin1');
    const next = head('GET', '/health/live', {});
    const received = await exchange(
      head('POST', lightboxes(user), {
        authorization: `Bearer ${user.token}`,
        'content-type': 'application/json',
        'content-length': body.length,
        'x-forwarded-for': '198.51.100.1',
      }) + start,
      rest + next,
    );
    expect(received).toMatch(/^HTTP\/1\.1 413 /);
    expect(received).toMatch(/^connection: close\r$/im);
    expect(received).toContain('an object of the JSON request body has more than 1000 keys');
    expect(answersIn(received)).toBe(1);
  });

  it('refuses a form body whose Content-Length is past the limit from its header alone', async () => {
    const received = await exchange(
      head('POST', lightboxes(user), {
        authorization: `Bearer ${user.token}`,
        'content-type': 'application/x-www-form-urlencoded',
        'content-length': 10_000_000,
        'x-forwarded-for': '198.51.100.2',
      }),
    );
    expect(received).toMatch(/^HTTP\/1\.1 413 /);
    expect(received).toMatch(/^connection: close\r$/im);
    expect(received).toContain('the request body is larger than the limit of 1048576 bytes');
  }, 20_000);

  it('answers 429 with Retry-After, body unread, past the refusals of an address or a token', async () => {
    const post = (owner: TestUser, address: string, body: string) =>
      t.http
        .post(lightboxes(owner))
        .auth(owner.token, { type: 'bearer' })
        .set('X-Forwarded-For', address)
        .type('json')
        .send(body);
    for (let refusal = 0; refusal < 3; refusal++) {
      await post(refused, '198.51.100.3', manyKeys).expect(413);
    }
    // The address has used its budget: another user's valid body from it is refused unread.
    const fromAddress = await post(other, '198.51.100.3', JSON.stringify({ name: 'from a spent address' }));
    expect(fromAddress.status).toBe(429);
    expect(fromAddress.headers['retry-after']).toMatch(/^\d+$/);
    expect(fromAddress.headers.connection).toBe('close');
    expect(fromAddress.text).toMatch(
      /^more than 3 request bodies refused in a minute from this address or access token;/,
    );
    // So has the token, from any address.
    await post(refused, '198.51.100.4', JSON.stringify({ name: 'with a spent token' })).expect(429);
    // Another address with another token, and requests without a body, are served.
    await post(other, '198.51.100.5', JSON.stringify({ name: 'elsewhere' })).expect(201);
    await t.http
      .get(lightboxes(user))
      .auth(user.token, { type: 'bearer' })
      .set('X-Forwarded-For', '198.51.100.3')
      .expect(200);
    const names = (await t.http.get(lightboxes(other)).auth(other.token, { type: 'bearer' }).expect(200))
      .body;
    expect(JSON.stringify(names)).not.toContain('from a spent address');
  });
});
