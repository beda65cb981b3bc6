import { createHash } from 'node:crypto';
import sharp from 'sharp';
import type { Response, Test } from 'supertest';
import { bearerRequests } from './bearer-requests';
import { Grants } from './grant-fixtures';
import { TestApp } from './test-app';

/** Helpers of the asset content specs: assets, uploads and following signed URLs. */
export function contentRequests(app: () => TestApp) {
  const { post } = bearerRequests(app);
  return {
    /** A new asset in `levelId` (created by the application user); its path. */
    async newAsset(levelId: number): Promise<string> {
      const created = await post('/rest/assets', app().adminToken, {
        accessLevels: [{ id: levelId }],
      }).expect(201);
      return new URL(created.headers.location as string).pathname;
    },
    upload(asset: string, token: string, body: Buffer, filename = 'file.bin'): Test {
      return app()
        .http.put(`${asset}/content`)
        .auth(token, { type: 'bearer' })
        .set('Content-Type', 'application/octet-stream')
        .set('Content-Disposition', `attachment; filename="${filename}"`)
        .send(body);
    },
  };
}

/** Follows a signed URL with Node's fetch (no token): status, headers and the body's SHA-256. */
export async function fetchSigned(
  url: string,
): Promise<{ status: number; headers: Headers; sha256: string; body: Buffer }> {
  const response = await fetch(url);
  const body = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, sha256: sha256(body), body };
}

export function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A PNG of the given size made with sharp. */
export function png(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } })
    .png()
    .toBuffer();
}

/** Polls `path` until it answers 303 (renditions are made in the background); the final response. */
export async function waitForRedirect(t: TestApp, path: string, token: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await t.http.get(path).auth(token, { type: 'bearer' }).redirects(0);
    if (response.status !== 404 || Date.now() > deadline) return response;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The Default level, and users holding exactly `permissions` on it. */
export async function defaultLevelWith(t: TestApp, grants: Grants, permissions: string[][]) {
  const level = await grants.topLevel('Default');
  const users = [];
  for (const held of permissions) {
    const user = await t.createUser();
    await grants.give(user.id, [level], held);
    users.push(user);
  }
  return { level, users };
}

/** A supertest parser that keeps the body as a Buffer, whatever its type. */
export function binaryBody(response: Response, callback: (error: Error | null, body: Buffer) => void): void {
  const parts: Buffer[] = [];
  response.on('data', (part: Buffer) => parts.push(part));
  response.on('end', () => callback(null, Buffer.concat(parts)));
}
