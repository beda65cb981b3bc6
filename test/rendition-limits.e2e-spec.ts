import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { RenditionsService } from '@dam/asset-content';
import { bearerRequests } from './helpers/bearer-requests';
import { contentRequests, defaultLevelWith, waitForRedirect } from './helpers/content-fixtures';
import { Grants } from './helpers/grant-fixtures';
import { TestApp } from './helpers/test-app';

const MAX_INPUT_BYTES = 2 * 1024 * 1024;

/**
 * Memory stays flat in file size: images over DAM_RENDITION_MAX_INPUT_BYTES or
 * DAM_RENDITION_MAX_INPUT_PIXELS are never decoded. They get no renditions and no conversions; their
 * upload still succeeds.
 */
describe('rendition limits', () => {
  let t: TestApp;
  let level: number;
  const { get } = bearerRequests(() => t);
  const { newAsset, upload } = contentRequests(() => t);

  beforeAll(async () => {
    t = await TestApp.start({ env: { DAM_RENDITION_MAX_INPUT_BYTES: String(MAX_INPUT_BYTES) } });
    ({ level } = await defaultLevelWith(t, new Grants(t), []));
  });
  afterAll(() => t?.close());

  /** Waits until every queued rendition has been generated (or refused). */
  const renditionsDone = () => t.app.get(RenditionsService).idle();

  it('gives a decompression bomb (a small PNG of 20000×20000) no rendition; its upload succeeds', async () => {
    const bomb = await sharp({
      create: { width: 20_000, height: 20_000, channels: 3, background: { r: 255, g: 255, b: 255 } },
      limitInputPixels: false,
    })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(bomb.length).toBeLessThan(MAX_INPUT_BYTES);
    const asset = await newAsset(level);
    await upload(asset, t.adminToken, bomb, 'bomb.png').expect(200);
    await renditionsDone();
    for (const path of ['thumbnail', 'preview', 'display', 'unwatermarked-large-image']) {
      await get(`${asset}/${path}`, t.adminToken).expect(404);
    }
    const conversion = await get(`${asset}/conversion`, t.adminToken).query({ width: 10 }).expect(413);
    expect(conversion.text).toMatch(/pixels/);
    const content = await get(`${asset}/content`, t.adminToken).redirects(0);
    expect(content.status).toBe(303);
  }, 60_000);

  it('gives an image over DAM_RENDITION_MAX_INPUT_BYTES no rendition; its upload succeeds', async () => {
    const asset = await newAsset(level);
    await upload(asset, t.adminToken, randomBytes(MAX_INPUT_BYTES + 1), 'big.jpg').expect(200);
    await renditionsDone();
    await get(`${asset}/thumbnail`, t.adminToken).expect(404);
    await get(`${asset}/conversion`, t.adminToken).query({ width: 10 }).expect(413);
  });

  it('still renders an image within the limits, from the stored file', async () => {
    const photo = await sharp({
      create: { width: 3000, height: 2000, channels: 3, background: { r: 10, g: 120, b: 200 } },
    })
      .jpeg()
      .toBuffer();
    const asset = await newAsset(level);
    await upload(asset, t.adminToken, photo, 'photo.jpg').expect(200);
    await renditionsDone();
    const redirect = await waitForRedirect(t, `${asset}/preview`, t.adminToken, 1000);
    expect(redirect.status).toBe(303);
  });
});
