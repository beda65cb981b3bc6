import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import sharp from 'sharp';
import { RenditionsService } from '@dam/asset-content';
import { bearerRequests } from './helpers/bearer-requests';
import { contentRequests, defaultLevelWith, fetchSigned } from './helpers/content-fixtures';
import { Grants } from './helpers/grant-fixtures';
import { pdfOf, pdfStream, simplePdf, testVideo } from './helpers/media-fixtures';
import { TestApp } from './helpers/test-app';

jest.setTimeout(120_000);

/** The pages of a PDF this spec allows (DAM_RENDITION_MAX_PDF_PAGES), so a hostile page count stays small. */
const MAX_PDF_PAGES = 20;

/**
 * Issue 34 (DESIGN §12, "Previews"): a video gets JPEG renditions of a frame and a web proxy, a PDF the
 * JPEG renditions of its first page, made by child processes after the upload answered; a corrupt or
 * hostile file gets none and its upload still succeeds. Fixtures are made here: a 2 s video by the
 * shipped ffmpeg, PDFs written by hand.
 */
describe('previews of videos and PDFs', () => {
  let t: TestApp;
  let level: number;
  const { get } = bearerRequests(() => t);
  const { newAsset, upload } = contentRequests(() => t);
  let video: Buffer;

  beforeAll(async () => {
    t = await TestApp.start({ env: { DAM_RENDITION_MAX_PDF_PAGES: String(MAX_PDF_PAGES) } });
    ({ level } = await defaultLevelWith(t, new Grants(t), []));
    video = testVideo({ seconds: 2, width: 320, height: 240 });
  });
  afterAll(() => t?.close());

  const renditionsDone = () => t.app.get(RenditionsService).idle();

  /** The redirect target of a rendition path of `asset`, fetched. */
  async function fetched(asset: string, path: string) {
    const redirect = await get(`${asset}/${path}`, t.adminToken).redirects(0);
    expect([path, redirect.status]).toEqual([path, 303]);
    return fetchSigned(redirect.headers.location as string);
  }

  async function expectJpegRenditions(asset: string, sizes: Array<[string, number, number]>) {
    for (const [path, width, height] of sizes) {
      const file = await fetched(asset, path);
      const metadata = await sharp(file.body).metadata();
      expect([path, file.status, metadata.format, metadata.width, metadata.height]).toEqual([
        path,
        200,
        'jpeg',
        width,
        height,
      ]);
    }
  }

  async function expectNoRenditions(asset: string) {
    for (const path of ['thumbnail', 'preview', 'display', 'unwatermarked-large-image', 'preview-video'])
      expect([path, (await get(`${asset}/${path}`, t.adminToken)).status]).toEqual([path, 404]);
  }

  it('makes JPEGs of a frame of a video, and a web proxy MP4 that answers a Range request', async () => {
    const asset = await newAsset(level);
    await upload(asset, t.adminToken, video, 'clip.mp4').expect(200);
    await renditionsDone();
    // 320×240 is never enlarged: the display and large images keep the frame's own size.
    await expectJpegRenditions(asset, [
      ['thumbnail', 150, 113],
      ['preview', 320, 240],
      ['display', 320, 240],
    ]);
    const representation = await get(asset, t.adminToken).expect(200);
    expect(representation.body).toMatchObject({ type: 'Video' });
    expect(new URL(representation.body.previewVideoUrl as string).pathname).toBe(`${asset}/preview-video`);

    const redirect = await get(`${asset}/preview-video`, t.adminToken).redirects(0).expect(303);
    const location = redirect.headers.location as string;
    const whole = await fetchSigned(location);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    expect(whole.body.subarray(4, 8).toString('latin1')).toBe('ftyp');
    // +faststart: the movie header comes before the media data.
    expect(whole.body.indexOf('moov')).toBeLessThan(whole.body.indexOf('mdat'));
    const range = await fetch(location, { headers: { Range: 'bytes=0-99' } });
    expect(range.status).toBe(206);
    expect(Buffer.from(await range.arrayBuffer())).toEqual(whole.body.subarray(0, 100));
  });

  it('offers no preview video for an image asset', async () => {
    const asset = await newAsset(level);
    await upload(
      asset,
      t.adminToken,
      await sharp({ create: { width: 40, height: 30, channels: 3, background: '#123456' } })
        .png()
        .toBuffer(),
      'p.png',
    ).expect(200);
    await renditionsDone();
    const representation = await get(asset, t.adminToken).expect(200);
    expect(representation.body.previewVideoUrl).toBeUndefined();
    await get(`${asset}/preview-video`, t.adminToken).expect(404);
  });

  it('makes JPEGs of the first page of a PDF at the rendition sizes', async () => {
    const asset = await newAsset(level);
    await upload(asset, t.adminToken, simplePdf({ width: 600, height: 800 }), 'brochure.pdf').expect(200);
    await renditionsDone();
    await expectJpegRenditions(asset, [
      ['thumbnail', 113, 150],
      ['preview', 300, 400],
      ['display', 600, 800],
      ['unwatermarked-large-image', 768, 1024],
    ]);
  });

  it('gives a truncated MP4 no rendition; its upload succeeds', async () => {
    const asset = await newAsset(level);
    await upload(asset, t.adminToken, video.subarray(0, Math.floor(video.length / 2)), 'cut.mp4').expect(200);
    await renditionsDone();
    await expectNoRenditions(asset);
    await get(`${asset}/content`, t.adminToken).redirects(0).expect(303);
  });

  it('gives hostile PDFs no rendition (JavaScript, a huge page count, garbage); their uploads succeed', async () => {
    const pages = Array.from({ length: MAX_PDF_PAGES + 1 }, (_, index) => `${index + 3} 0 R`);
    const manyPages = pdfOf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      `<< /Type /Pages /Kids [${pages.join(' ')}] /Count ${pages.length} >>`,
      ...pages.map(() => '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>'),
    ]);
    const hostile: Array<[string, Buffer]> = [
      ['script.pdf', simplePdf({ catalogExtra: '/OpenAction << /S /JavaScript /JS (app.alert(1)) >>' })],
      ['pages.pdf', manyPages],
      ['garbage.pdf', Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(2000, 'x')])],
      [
        'stream.pdf',
        pdfOf([
          '<< /Type /Catalog /Pages 2 0 R >>',
          pdfStream('/Filter /FlateDecode', Buffer.from('not deflate')),
        ]),
      ],
    ];
    for (const [name, bytes] of hostile) {
      const asset = await newAsset(level);
      await upload(asset, t.adminToken, bytes, name).expect(200);
      await renditionsDone();
      await expectNoRenditions(asset);
    }
  });

  it('counts renditions made and failed by kind in /metrics', async () => {
    const metrics = await t.http.get('/metrics').expect(200);
    for (const [kind, outcome] of [
      ['video', 'made'],
      ['video-proxy', 'made'],
      ['pdf', 'made'],
      ['pdf', 'failed'],
      ['video', 'failed'],
    ]) {
      const line = new RegExp(
        `^dam_renditions_total\\{kind="${kind}",outcome="${outcome}"\\} ([1-9]\\d*)$`,
        'm',
      );
      expect([kind, outcome, line.test(metrics.text)]).toEqual([kind, outcome, true]);
    }
  });
});

/** DAM_RENDITION_TIMEOUT_SECONDS: a decoder still running then is killed; the file gets no rendition. */
describe('previews past the time limit', () => {
  let t: TestApp;
  let folder: string;
  const { get, post } = bearerRequests(() => t);
  const { newAsset, upload } = contentRequests(() => t);

  beforeAll(async () => {
    // An "ffmpeg" that never answers (DAM_FFMPEG_PATH names any program).
    folder = mkdtempSync(path.join(tmpdir(), 'dam-hung-ffmpeg-'));
    const hung = path.join(folder, 'ffmpeg');
    writeFileSync(hung, '#!/bin/sh\nexec sleep 600\n', { mode: 0o755 });
    t = await TestApp.start({ env: { DAM_FFMPEG_PATH: hung, DAM_RENDITION_TIMEOUT_SECONDS: '1' } });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('kills the decoder, counts the rendition as timed out, and keeps the upload', async () => {
    const { level } = await defaultLevelWith(t, new Grants(t), []);
    const asset = await newAsset(level);
    await upload(asset, t.adminToken, testVideo({ seconds: 1, width: 64, height: 48 }), 'clip.mp4').expect(
      200,
    );
    await t.app.get(RenditionsService).idle();
    await get(`${asset}/thumbnail`, t.adminToken).expect(404);
    await get(`${asset}/content`, t.adminToken).redirects(0).expect(303);
    const metrics = await t.http.get('/metrics').expect(200);
    expect(metrics.text).toMatch(/^dam_renditions_total\{kind="video",outcome="timed_out"\} 1$/m);
  });

  it('gives no video facts to embedded-data mappings when the probe is killed, and keeps the upload', async () => {
    const { level } = await defaultLevelWith(t, new Grants(t), []);
    const attribute = await post('/rest/attributes', t.adminToken, { label: 'Clip codec', typeId: 1 }).expect(
      201,
    );
    await post('/rest/embedded-data-mappings', t.adminToken, {
      type: 'VIDEO',
      tagName: 'Codec',
      attributeUrl: attribute.body.url,
    }).expect(201);
    const asset = await newAsset(level);
    const clip = testVideo({ seconds: 1, width: 64, height: 48 });
    await upload(asset, t.adminToken, clip, 'clip.mp4').query({ extractEmbeddedData: 'true' }).expect(200);
    await t.app.get(RenditionsService).idle();
    const body = (await get(asset, t.adminToken).expect(200)).body as {
      attributes: Array<{ name: string; value: unknown }>;
    };
    const codec = body.attributes.find((value) => value.name === 'Clip codec');
    expect([undefined, null, '']).toContain(codec?.value);
    await get(`${asset}/content`, t.adminToken).redirects(0).expect(303);
  });
});
