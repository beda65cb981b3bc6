/**
 * Issue 34's numbers, side by side in one run:
 * - a 1080p H.264 clip (BENCH_VIDEO_SECONDS, 60 by default, made here by the shipped ffmpeg): the time
 *   from the upload's answer until its proxy is served, against the same ffmpeg command run alone (target
 *   ≤ 1.5×), and the service's RSS growth over its level before the upload (target < 64 MB);
 * - a 200-page PDF: the time until its first page's renditions are served (target ≤ 2 s), once with the
 *   renderer child started for it and once with it already running, the service's RSS meanwhile (flat),
 *   and the renderer alone (no service) for the part of that time the child takes;
 * - GET of an asset during a transcode against the same GET idle (target ≥ 0.7).
 *
 *   npm run build && npx ts-node -r tsconfig-paths/register --transpile-only bench/previews.bench.ts
 *
 * The service runs from the build in a child process on the DAM_TEST_MATRIX database (SQLite by default).
 * Settings: BENCH_VIDEO_SECONDS (60), BENCH_SECONDS (5, each GET load), BENCH_CONNECTIONS (16). Writes
 * bench/results/previews.md.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AppConfig } from '@dam/core';
import { runDecoder } from '../libs/asset-content/src/previews/decoder-child';
import { Ffmpeg, ffmpegBinary, parseVideoFacts } from '../libs/asset-content/src/previews/ffmpeg';
import { PdfRenderers } from '../libs/asset-content/src/previews/pdf-first-page';
import { pdfOf, pdfStream } from '../test/helpers/media-fixtures';
import { startBenchService } from './bench-service';
import { load } from './load';

const VIDEO_SECONDS = Number(process.env.BENCH_VIDEO_SECONDS ?? 60);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const MB = 2 ** 20;

/** The 1080p clip: a moving test pattern with a tone, H.264/AAC. */
function makeClip(folder: string): string {
  const file = path.join(folder, 'clip-1080p.mp4');
  const made = spawnSync(
    ffmpegBinary(undefined),
    [
      ...['-hide_banner', '-loglevel', 'error', '-y'],
      ...['-f', 'lavfi', '-i', `testsrc2=duration=${VIDEO_SECONDS}:size=1920x1080:rate=25`],
      ...['-f', 'lavfi', '-i', `sine=frequency=440:duration=${VIDEO_SECONDS}`],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', file],
    ],
    { encoding: 'utf8' },
  );
  if (made.status !== 0) throw new Error(made.stderr);
  return file;
}

/** 200 pages, each with a little drawing and text. */
function twoHundredPages(): Buffer {
  const pages = Array.from({ length: 200 }, (_, index) => index);
  const first = 3;
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${pages.map((index) => `${first + index * 2} 0 R`).join(' ')}] /Count 200 >>`,
    ...pages.flatMap((index) => [
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents ${first + index * 2 + 1} 0 R /Resources << /Font << /F1 ${first + 400} 0 R >> >> >>`,
      pdfStream(
        '',
        Buffer.from(`0.8 0.2 0.2 rg 50 50 495 742 re f 0 g BT /F1 48 Tf 80 400 Td (Page ${index + 1}) Tj ET`),
      ),
    ]),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]);
}

async function timeAlone(clip: string, folder: string): Promise<number> {
  const config = AppConfig.fromEnv({});
  const binary = ffmpegBinary(undefined);
  const probe = await runDecoder(binary, ['-hide_banner', '-i', clip], {
    timeoutMs: 60_000,
    maxMemoryBytes: 2 ** 40,
  });
  const facts = parseVideoFacts(probe.stderr);
  if (facts === undefined) throw new Error('the clip cannot be read');
  const limits = { timeoutMs: 3_600_000, maxMemoryBytes: 2 ** 40 };
  const ffmpeg = new Ffmpeg(binary, config.previews.threads, limits);
  const started = Date.now();
  const { code } = await runDecoder(
    binary,
    ffmpeg.proxyCommand(clip, facts, path.join(folder, 'alone.mp4')),
    limits,
  );
  if (code !== 0) throw new Error(`ffmpeg alone exited with ${code}`);
  return Date.now() - started;
}

/** The first page of the 200-page PDF rendered by a renderer started for it, then by the same one again. */
async function pdfRendererAlone(folder: string): Promise<{ cold: number; warm: number }> {
  const file = path.join(folder, 'pages.pdf');
  fs.writeFileSync(file, twoHundredPages());
  const renderers = new PdfRenderers({ timeoutMs: 60_000, maxMemoryBytes: 2 ** 30 });
  const request = { box: 1024, maxPages: 5000, maxPixels: 100_000_000 };
  try {
    const times: number[] = [];
    for (let round = 0; round < 2; round += 1) {
      const started = Date.now();
      await renderers.render(file, path.join(folder, 'page.rgba'), request);
      times.push(Date.now() - started);
    }
    return { cold: times[0], warm: times[1] };
  } finally {
    renderers.close();
  }
}

async function main(): Promise<void> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-previews-bench-'));
  console.log(`making a ${VIDEO_SECONDS} s 1080p clip...`);
  const clip = makeClip(folder);
  const aloneMs = await timeAlone(clip, folder);
  console.log(`the proxy command alone: ${aloneMs} ms`);
  const bench = await startBenchService({ DAM_RENDITION_MAX_INPUT_BYTES: String(4 * 1024 * MB) });
  const { service, token } = bench;
  try {
    const base = service.baseUrl;
    const call = (method: string, url: string, body?: BodyInit, type = 'application/json') =>
      fetch(`${base}${url}`, {
        method,
        redirect: 'manual',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': type,
          'content-disposition': 'attachment; filename="f"',
        },
        body,
      });
    const newAsset = async (): Promise<string> => {
      const created = await call('POST', '/rest/assets', JSON.stringify({ accessLevels: [{ id: 1 }] }));
      return new URL(created.headers.get('location') ?? '').pathname;
    };
    const waitFor = async (url: string): Promise<number> => {
      for (;;) {
        if ((await call('GET', url)).status === 303) return Date.now();
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const upload = async (asset: string, file: Buffer | string): Promise<number> => {
      const body = new Uint8Array(typeof file === 'string' ? fs.readFileSync(file) : file);
      const answered = await call('PUT', `${asset}/content`, body, 'application/octet-stream');
      if (answered.status !== 200) throw new Error(`upload: ${answered.status}`);
      return Date.now();
    };

    // GET idle, then during a transcode.
    const probe = await newAsset();
    const getUrl = `${base}${probe}`;
    await load(getUrl, { connections: CONNECTIONS, seconds: 2, token });
    const idle = await load(getUrl, { connections: CONNECTIONS, seconds: SECONDS, token });

    await new Promise((resolve) => setTimeout(resolve, 1000));
    const before = (await service.rss('VmRSS')) ?? 0;
    let peak = before;
    const sampler = setInterval(
      () => void service.rss('VmRSS').then((rss) => (peak = Math.max(peak, rss ?? 0))),
      100,
    );
    const video = await newAsset();
    const answeredAt = await upload(video, clip);
    const busy = await load(getUrl, { connections: CONNECTIONS, seconds: SECONDS, token });
    const proxyAt = await waitFor(`${video}/preview-video`);
    clearInterval(sampler);
    const serviceMs = proxyAt - answeredAt;

    // Two 200-page PDFs: the first starts the renderer child, the second finds it running.
    const pdfBefore = (await service.rss('VmRSS')) ?? 0;
    let pdfPeak = pdfBefore;
    const pdfSampler = setInterval(
      () => void service.rss('VmRSS').then((rss) => (pdfPeak = Math.max(pdfPeak, rss ?? 0))),
      50,
    );
    const pdfMs: number[] = [];
    for (let round = 0; round < 2; round += 1) {
      const pdf = await newAsset();
      const pdfAnswered = await upload(pdf, twoHundredPages());
      pdfMs.push((await waitFor(`${pdf}/thumbnail`)) - pdfAnswered);
    }
    clearInterval(pdfSampler);
    const pdfStages = await pdfRendererAlone(folder);

    const ratio = serviceMs / aloneMs;
    const getRatio = busy.requestsPerSecond / idle.requestsPerSecond;
    const report = [
      '# Previews of videos and PDFs (issue 34)',
      '',
      `${new Date().toISOString()}, ${bench.describe}, ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(2)} at the end; ` +
        `a ${VIDEO_SECONDS} s 1080p H.264/AAC clip (${(fs.statSync(clip).size / MB).toFixed(1)} MB), GET loads of ${SECONDS} s at ${CONNECTIONS} connections.`,
      '',
      '| figure | value | target |',
      '|---|---|---|',
      `| proxy made alone (the same ffmpeg command) | ${(aloneMs / 1000).toFixed(1)} s | |`,
      `| upload answered → proxy served (frame JPEGs, proxy, stores) | ${(serviceMs / 1000).toFixed(1)} s | |`,
      `| ratio | **${ratio.toFixed(2)}** | ≤ 1.5 |`,
      `| service RSS growth over its level before the upload (peak) | **${((peak - before) / MB).toFixed(1)} MB** | < 64 MB |`,
      `| 200-page PDF: upload answered → thumbnail served, renderer started for it | **${(pdfMs[0] / 1000).toFixed(2)} s** | ≤ 2 s |`,
      `| 200-page PDF: the same, renderer already running | **${(pdfMs[1] / 1000).toFixed(2)} s** | ≤ 2 s |`,
      `| service RSS growth during the two PDFs (peak) | ${((pdfPeak - pdfBefore) / MB).toFixed(1)} MB | flat |`,
      `| the PDF's first page alone (renderer child, no service): started for it / running | ${pdfStages.cold} ms / ${pdfStages.warm} ms | |`,
      `| GET /rest/assets/{id} idle | ${idle.requestsPerSecond.toFixed(0)} req/s (p99 ${idle.p99} ms) | |`,
      `| GET /rest/assets/{id} during the transcode | ${busy.requestsPerSecond.toFixed(0)} req/s (p99 ${busy.p99} ms) | |`,
      `| during / idle | **${getRatio.toFixed(2)}** | ≥ 0.7 |`,
      '',
    ].join('\n');
    console.log(report);
    fs.writeFileSync(path.join(__dirname, 'results', 'previews.md'), report);
  } finally {
    await bench.stop();
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
