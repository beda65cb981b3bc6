import { createHash } from 'node:crypto';
import { TestApp } from './test-app';

/** tus 1.0 requests at /rest/tus/ (issue 17), with a bearer token, as the raw supertest answer. */
export const tusRequests = {
  /** POST /rest/tus: a new upload of `length` bytes; `metadata` values are base64-encoded here. */
  create(app: TestApp, token: string, length: number, metadata: Record<string, string>) {
    const pairs = Object.entries(metadata).map(([key, value]) => `${key} ${base64(value)}`);
    return app.http
      .post('/rest/tus')
      .auth(token, { type: 'bearer' })
      .set('Tus-Resumable', '1.0.0')
      .set('Upload-Length', String(length))
      .set('Upload-Metadata', pairs.join(','));
  },

  patch(app: TestApp, token: string, path: string, offset: number, bytes: Buffer) {
    return app.http
      .patch(path)
      .auth(token, { type: 'bearer' })
      .set('Tus-Resumable', '1.0.0')
      .set('Upload-Offset', String(offset))
      .set('Content-Type', 'application/offset+octet-stream')
      .send(bytes);
  },

  head(app: TestApp, token: string, path: string) {
    return app.http.head(path).auth(token, { type: 'bearer' }).set('Tus-Resumable', '1.0.0');
  },

  delete(app: TestApp, token: string, path: string) {
    return app.http.delete(path).auth(token, { type: 'bearer' }).set('Tus-Resumable', '1.0.0');
  },
};

export const base64 = (text: string) => Buffer.from(text).toString('base64');

/** The Repr-Digest of `bytes` (RFC 9530), as the server answers a finished upload. */
export const reprDigestOf = (bytes: Buffer) =>
  `sha-256=:${createHash('sha256').update(bytes).digest('base64')}:`;

/** The numeric id of an asset path `/rest/assets/{id}`. */
export function assetIdOf(assetPath: string): number {
  return Number(assetPath.split('/').pop());
}
