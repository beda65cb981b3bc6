import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { open } from 'node:fs/promises';
import * as http from 'node:http';
import { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { DamHttp, RETRY_DELAYS_MS, UploadFailed } from './dam-http';
import { PIECE_BYTES } from './file-range';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A server that answers each request with `answer` (by default: 200 and the SHA-256 of the body). */
async function server(
  answer?: (request: http.IncomingMessage, response: http.ServerResponse) => void,
): Promise<{ url: string; requests: number; close(): Promise<void> }> {
  const state = { url: '', requests: 0, close: (): Promise<void> => Promise.resolve() };
  const listening = http.createServer((request, response) => {
    state.requests++;
    if (answer !== undefined) return answer(request, response);
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => response.end(sha256(Buffer.concat(parts))));
  });
  await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(listening.address() as AddressInfo).port}/chunk`;
  state.close = () =>
    new Promise<void>((resolve) => {
      listening.closeAllConnections();
      listening.close(() => resolve());
    });
  return state;
}

describe('DamHttp.send with a FileRange body', () => {
  let root: string;
  let file: string;
  const bytes = randomBytes(3 * PIECE_BYTES + 12_345);
  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-http-'));
    file = path.join(root, 'data.bin');
    fs.writeFileSync(file, bytes);
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('sends exactly the bytes of the range, over several pieces', async () => {
    const target = await server();
    const handle = await open(file, 'r');
    try {
      const http = new DamHttp('token', 1);
      const start = PIECE_BYTES - 7;
      const length = 2 * PIECE_BYTES + 100;
      const answer = await http.send('PUT', target.url, { body: { handle, start, length } });
      expect(await answer.text()).toBe(sha256(bytes.subarray(start, start + length)));
      const whole = await http.send('PUT', target.url, { body: { handle, start: 0, length: bytes.length } });
      expect(await whole.text()).toBe(sha256(bytes));
    } finally {
      await handle.close();
      await target.close();
    }
  });

  it('reports a refusal answered before the whole body was read', async () => {
    // It answers at once and then drains the body (a server that closes the connection instead can
    // meet the client's write first: EPIPE, a network failure, whatever the client does).
    const target = await server((request, response) => {
      response.writeHead(413).end('chunk too large');
      request.resume();
    });
    const handle = await open(file, 'r');
    try {
      const sent = new DamHttp('token', 3).send('PUT', target.url, {
        body: { handle, start: 0, length: bytes.length },
      });
      await expect(sent).rejects.toThrow(new UploadFailed(`PUT ${target.url} answered 413: chunk too large`));
    } finally {
      await handle.close();
      await target.close();
    }
  });

  it('fails at once, without retrying, when the file is shorter than the range', async () => {
    const target = await server();
    const handle = await open(file, 'r');
    try {
      const started = Date.now();
      const sent = new DamHttp('token', 3).send('PUT', target.url, {
        body: { handle, start: bytes.length - 10, length: 100 },
      });
      await expect(sent).rejects.toThrow(
        new UploadFailed(`PUT ${target.url}: the file is shorter than when it was hashed`),
      );
      // A retry would have waited RETRY_DELAYS_MS[0] first, and reached the server again.
      expect(Date.now() - started).toBeLessThan(RETRY_DELAYS_MS[0]);
      expect(target.requests).toBeLessThanOrEqual(1);
    } finally {
      await handle.close();
      await target.close();
    }
  });
});
