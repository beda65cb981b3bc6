import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ChildLimits, DecoderFailed, runDecoder } from './decoder-child';

/**
 * The program the child process runs (ES module text, given to `node --input-type=module -e`): PDF.js
 * (pdfjs-dist, ESM only) opens the file with scripting, eval and XFA off, refuses a document with more
 * than `maxPages` pages or with JavaScript in it, and renders the first page with @napi-rs/canvas, fitted
 * inside `box`×`box`, into a PNG file. It answers one JSON line: `{pages, width, height}` or `{refused}`.
 */
const PROGRAM = `
const [pdfjsUrl, canvasUrl, fontsDir, input, output, box, maxPages, maxPixels] = process.argv.slice(1);
const { readFile, writeFile } = await import('node:fs/promises');
const pdfjs = await import(pdfjsUrl);
const answer = (value) => process.stdout.write(JSON.stringify(value) + '\\n');
const data = new Uint8Array(await readFile(input));
if (/\\/(JavaScript|JS)\\b/.test(Buffer.from(data.buffer).toString('latin1'))) {
  answer({ refused: 'it carries JavaScript' });
  process.exit(0);
}
const document = await pdfjs.getDocument({
  data, isEvalSupported: false, enableXfa: false, disableFontFace: true, useSystemFonts: false,
  standardFontDataUrl: fontsDir, maxImageSize: Number(maxPixels), stopAtErrors: true, verbosity: 0,
}).promise;
if (document.numPages > Number(maxPages)) {
  answer({ refused: 'it has ' + document.numPages + ' pages, more than ' + maxPages });
  process.exit(0);
}
const actions = await document.getJSActions();
if (actions && (actions.size ?? Object.keys(actions).length) > 0) {
  answer({ refused: 'it carries JavaScript' });
  process.exit(0);
}
const page = await document.getPage(1);
const natural = page.getViewport({ scale: 1 });
const scale = Math.min(Number(box) / natural.width, Number(box) / natural.height);
const viewport = page.getViewport({ scale });
const width = Math.max(1, Math.round(viewport.width));
const height = Math.max(1, Math.round(viewport.height));
const { createCanvas } = await import(canvasUrl);
const canvas = createCanvas(width, height);
const context = canvas.getContext('2d');
context.fillStyle = '#ffffff';
context.fillRect(0, 0, width, height);
await page.render({ canvas, canvasContext: context, viewport, background: '#ffffff' }).promise;
await writeFile(output, await canvas.encode('png'));
answer({ pages: document.numPages, width, height });
process.exit(0);
`;

export interface PdfPage {
  pages: number;
  width: number;
  height: number;
}

/** Where the renderer's files are (resolved once: jest, ts-node and the build all find them this way). */
function rendererFiles(): { pdfjsUrl: string; canvasUrl: string; fontsDir: string } {
  const main = require.resolve('pdfjs-dist/legacy/build/pdf.mjs');
  const root = path.resolve(path.dirname(main), '..', '..');
  return {
    pdfjsUrl: pathToFileURL(main).href,
    canvasUrl: pathToFileURL(require.resolve('@napi-rs/canvas')).href,
    fontsDir: path.join(root, 'standard_fonts') + path.sep,
  };
}

/**
 * The first page of a PDF rendered in a child Node process (its own heap, limited; killed after the time
 * limit or past the memory limit) into a PNG file at `output`. Rejects with `DecoderFailed` for a PDF it
 * cannot read or refuses (too many pages, JavaScript).
 */
export async function renderFirstPage(
  input: string,
  output: string,
  options: { box: number; maxPages: number; maxPixels: number; limits: ChildLimits },
): Promise<PdfPage> {
  const files = rendererFiles();
  const { code, stdout, stderr } = await runDecoder(
    process.execPath,
    [
      ...['--max-old-space-size=256', '--input-type=module', '-e', PROGRAM],
      ...[files.pdfjsUrl, files.canvasUrl, files.fontsDir, input, output],
      ...[String(options.box), String(options.maxPages), String(options.maxPixels)],
    ],
    options.limits,
  );
  const line = stdout.trim().split('\n').slice(-1)[0] ?? '';
  let result: Partial<PdfPage> & { refused?: string } = {};
  try {
    result = JSON.parse(line) as typeof result;
  } catch {
    // Failed before answering: the reason is in stderr.
  }
  if (result.refused !== undefined) throw new DecoderFailed(`refused: ${result.refused}`);
  if (code !== 0 || result.pages === undefined || result.width === undefined || result.height === undefined) {
    const reason =
      stderr
        .trim()
        .split('\n')
        .find((text) => /Error|error/.test(text)) ?? `exit code ${code}`;
    throw new DecoderFailed(`the PDF could not be rendered: ${reason.slice(0, 300)}`);
  }
  return { pages: result.pages, width: result.width, height: result.height };
}
