import sharp from 'sharp';
import { bearerRequests, itRefusesRequestsWithoutAToken } from './helpers/bearer-requests';
import {
  binaryBody,
  contentRequests,
  defaultLevelWith,
  fetchSigned,
  waitForRedirect,
} from './helpers/content-fixtures';
import { Grants } from './helpers/grant-fixtures';
import { TestApp, TestUser } from './helpers/test-app';

/** Renditions generated after an upload, conversions on the fly, and embedded data read into attributes. */
describe('asset renditions, conversion and embedded data', () => {
  let t: TestApp;
  let level: number;
  let viewer: TestUser;
  let downloader: TestUser;
  let photo: Buffer;
  let photoAsset: string;
  const { get } = bearerRequests(() => t);
  const { newAsset, upload } = contentRequests(() => t);

  beforeAll(async () => {
    t = await TestApp.start();
    ({
      level,
      users: [viewer, downloader],
    } = await defaultLevelWith(t, new Grants(t), [['view'], ['view', 'download']]));
    photo = await sharp({
      create: { width: 1600, height: 1200, channels: 3, background: { r: 10, g: 120, b: 200 } },
    })
      .jpeg()
      .withExif({ IFD0: { ImageDescription: 'A blue field', Artist: 'Ada' } })
      .toBuffer();
    photoAsset = await newAsset(level);
    await upload(photoAsset, t.adminToken, photo, 'field.jpg')
      .query({ extractEmbeddedData: 'true' })
      .expect(200);
  });
  afterAll(() => t?.close());

  async function imageAt(path: string, token: string) {
    const redirect = await waitForRedirect(t, path, token);
    expect(redirect.status).toBe(303);
    const fetched = await fetchSigned(redirect.headers.location as string);
    expect(fetched.status).toBe(200);
    return sharp(fetched.body).metadata();
  }

  it('generates thumbnail, preview, display and large JPEGs of a real JPEG in the background', async () => {
    const sizes: Array<[string, number, number]> = [
      ['thumbnail', 150, 113],
      ['preview', 400, 300],
      ['display', 800, 600],
      ['unwatermarked-large-image', 1024, 768],
    ];
    for (const [path, width, height] of sizes) {
      const metadata = await imageAt(`${photoAsset}/${path}`, downloader.token);
      expect([path, metadata.format, metadata.width, metadata.height]).toEqual([path, 'jpeg', width, height]);
    }
    await imageAt(`${photoAsset}/thumbnail`, viewer.token);
  });

  it('fills attributes from EXIF following the embedded-data mappings', async () => {
    const asset = await get(photoAsset, t.adminToken).expect(200);
    const description = (asset.body.attributes as Array<{ name: string; value: string }>).find(
      (attribute) => attribute.name === 'Description',
    );
    expect(description?.value).toBe('A blue field');
    expect(asset.body.type).toBe('Image');
  });

  it('converts on the fly and streams a PNG or WebP of the asked size', async () => {
    const cropped = await get(`${photoAsset}/conversion`, downloader.token)
      .query({ width: 64, height: 64, format: 'png', cropToFit: 'true' })
      .buffer(true)
      .parse(binaryBody)
      .expect(200);
    expect(cropped.headers['content-type']).toBe('image/png');
    const png = await sharp(cropped.body as Buffer).metadata();
    expect([png.format, png.width, png.height]).toEqual(['png', 64, 64]);

    const fitted = await get(`${photoAsset}/conversion`, downloader.token)
      .query({ width: 100, format: 'webp' })
      .buffer(true)
      .parse(binaryBody)
      .expect(200);
    const webp = await sharp(fitted.body as Buffer).metadata();
    expect([webp.format, webp.width, webp.height]).toEqual(['webp', 100, 75]);
  });

  it('refuses bad conversion parameters and non-images with 400', async () => {
    for (const query of [
      { width: 0 },
      { width: 5000 },
      { width: 'wide' },
      {},
      { width: 10, format: 'bmp' },
      { width: 10, cropToFit: 'yes' },
      { width: 10, cropToFit: 'true' },
    ]) {
      const answer = await get(`${photoAsset}/conversion`, downloader.token).query(query);
      expect([JSON.stringify(query), answer.status, answer.type]).toEqual([
        JSON.stringify(query),
        400,
        'text/plain',
      ]);
    }
    const text = await newAsset(level);
    await upload(text, t.adminToken, Buffer.from('not an image'), 'notes.txt').expect(200);
    await get(`${text}/conversion`, downloader.token).query({ width: 10 }).expect(400);
    await get(`${text}/thumbnail`, downloader.token).expect(404);
  });

  it('answers 404 while no rendition exists', async () => {
    const empty = await newAsset(level);
    for (const path of ['thumbnail', 'preview', 'display', 'unwatermarked-large-image']) {
      await get(`${empty}/${path}`, t.adminToken).expect(404);
    }
  });

  it('needs download permission for conversions and the large image (403), visibility for the rest (404)', async () => {
    await get(`${photoAsset}/conversion`, viewer.token).query({ width: 10 }).expect(403);
    await get(`${photoAsset}/unwatermarked-large-image`, viewer.token).expect(403);
    const outsider = await t.createUser();
    await get(`${photoAsset}/thumbnail`, outsider.token).expect(404);
    await get(`${photoAsset}/preview`, outsider.token).expect(404);
    await get(`${photoAsset}/display`, outsider.token).expect(404);
  });

  itRefusesRequestsWithoutAToken(
    () => t,
    [
      ['GET', '/rest/assets/1/thumbnail'],
      ['GET', '/rest/assets/1/preview'],
      ['GET', '/rest/assets/1/display'],
      ['GET', '/rest/assets/1/unwatermarked-large-image'],
      ['GET', '/rest/assets/1/conversion'],
    ],
  );
});
