import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import sharp from 'sharp';
import { RenditionsService } from '@dam/asset-content';
import { bearerRequests } from './helpers/bearer-requests';
import { contentRequests, defaultLevelWith, waitForRedirect } from './helpers/content-fixtures';
import { Grants } from './helpers/grant-fixtures';
import { deflatedZeros, pdfOf, pdfStream, whitePng } from './helpers/media-fixtures';
import { TestApp } from './helpers/test-app';

const MAX_INPUT_BYTES = 2 * 1024 * 1024;
const MAX_DECODER_MB = 256;
const MB = 2 ** 20;

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
    t = await TestApp.start({
      env: {
        DAM_RENDITION_MAX_INPUT_BYTES: String(MAX_INPUT_BYTES),
        DAM_RENDITION_MAX_MEMORY_MB: String(MAX_DECODER_MB),
      },
    });
    ({ level } = await defaultLevelWith(t, new Grants(t), []));
  });
  afterAll(() => t?.close());

  /** Waits until every queued rendition has been generated (or refused). */
  const renditionsDone = () => t.app.get(RenditionsService).idle();

  it('gives a decompression bomb (a small PNG of 20000×20000) no rendition; its upload succeeds', async () => {
    const bomb = whitePng(20_000, 20_000);
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

  it('gives a PDF whose page content inflates to 640 MB no rendition; its upload succeeds, RSS stays bounded', async () => {
    const bomb = pdfOf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 600 800] /Contents 4 0 R >>',
      pdfStream('/Filter /FlateDecode', deflatedZeros(640)),
    ]);
    expect(bomb.length).toBeLessThan(MAX_INPUT_BYTES);
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    try {
      const asset = await newAsset(level);
      await upload(asset, t.adminToken, bomb, 'bomb.pdf').expect(200);
      await renditionsDone();
      await get(`${asset}/thumbnail`, t.adminToken).expect(404);
      await get(`${asset}/content`, t.adminToken).redirects(0).expect(303);
    } finally {
      clearInterval(sampler);
    }
    // Inflated in the renderer child (killed past DAM_RENDITION_MAX_MEMORY_MB), never in this process.
    expect((peak - before) / MB).toBeLessThan(64);
    const metrics = await t.http.get('/metrics').expect(200);
    expect(metrics.text).toMatch(/^dam_renditions_total\{kind="pdf",outcome="failed"\} [1-9]/m);
  }, 120_000);

  it('runs no JavaScript of a PDF, and refuses a page whose script names are #-escaped', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'dam-pdf-script-'));
    const marker = path.join(folder, 'ran');
    try {
      // Were it run in the renderer (Node), the script would write the marker file. On the page (its
      // open action, a link), not in the catalog: PDF.js lists only the document's own scripts.
      const script = `/S /J#61vaScript /#4AS (process.getBuiltinModule('fs').writeFileSync('${marker}', 'ran'))`;
      const escaped = pdfOf([
        '<< /Type /Catalog /Pages 2 0 R >>',
        '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 600 800] /Contents 4 0 R /AA << /O << ${script} >> >> ` +
          `/Annots [<< /Type /Annot /Subtype /Link /Rect [0 0 600 800] /A << ${script} >> >>] >>`,
        pdfStream('', Buffer.from('0 0 1 rg 50 50 500 700 re f')),
      ]);
      expect(escaped.toString('latin1')).not.toMatch(/\/(JavaScript|JS)\b/);
      const asset = await newAsset(level);
      await upload(asset, t.adminToken, escaped, 'escaped.pdf').expect(200);
      await renditionsDone();
      await get(`${asset}/thumbnail`, t.adminToken).expect(404);
      await get(`${asset}/content`, t.adminToken).redirects(0).expect(303);
      expect(existsSync(marker)).toBe(false);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

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
