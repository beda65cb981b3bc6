import { randomBytes } from 'node:crypto';
import type { Test } from 'supertest';
import { bearerRequests } from './bearer-requests';
import { binaryBody, contentRequests } from './content-fixtures';
import { TestApp } from './test-app';

/** An asset made by the application user, with its content: its path, id and bytes. */
export interface SharedAsset {
  path: string;
  id: number;
  bytes: Buffer;
  filename: string;
}

/** Helpers of the share specs: assets with content, shares, and their public URLs without a token. */
export function shareRequests(app: () => TestApp) {
  const { post } = bearerRequests(app);
  const { newAsset, upload } = contentRequests(app);
  const publicGet = (url: string, password?: string, address?: string): Test => {
    let request = app().http.get(new URL(url).pathname);
    if (address !== undefined) request = request.set('X-Forwarded-For', address);
    return password === undefined ? request : request.set('X-Share-Password', password);
  };
  return {
    async assetWith(level: number, filename: string, size = 1000): Promise<SharedAsset> {
      const path = await newAsset(level);
      const bytes = randomBytes(size);
      await upload(path, app().adminToken, bytes, filename).expect(200);
      return { path, id: Number(path.split('/').pop()), bytes, filename };
    },
    share(token: string, body: object): Test {
      return post('/rest/shares', token, body);
    },
    publicGet,
    /** The bytes of a public download (an item or the ZIP). */
    publicBytes(url: string, password?: string): Test {
      return publicGet(url, password).buffer(true).parse(binaryBody);
    },
    /** A lightbox of `owner` holding `assets`; its id. */
    async lightboxOf(
      owner: { id: number; token: string },
      name: string,
      assets: SharedAsset[],
    ): Promise<number> {
      const created = await post(`/rest/users/${owner.id}/lightboxes`, owner.token, { name }).expect(201);
      const path = new URL(created.headers.location as string).pathname;
      for (const asset of assets) {
        await post(`${path}/contents`, owner.token, { url: app().rest(`assets/${asset.id}`) }).expect(201);
      }
      return Number(path.split('/').pop());
    },
  };
}
