/**
 * The program a PDF renderer child runs (ES module text, given to `node --input-type=module -e`). It
 * loads PDF.js (pdfjs-dist, ESM only; its worker code in the same thread, loaded once) and @napi-rs/canvas
 * once, then renders one request per stdin line (JSON: input, output, box, maxPages, maxPixels) and answers
 * one JSON line per request: `{pages, width, height}`, `{refused}` or `{error}`. Each document is opened
 * with scripting, eval and XFA off (PDF.js runs no JavaScript of a PDF); one with more than `maxPages`
 * pages, or with a /JavaScript or /JS name in its bytes (escaped or not; not inside compressed object
 * streams) or document JavaScript actions, is refused; otherwise its first page is drawn on white,
 * fitted inside `box`×`box`, and written to `output` as raw RGBA pixels (no PNG to encode here and decode
 * again in the service). It exits when its stdin closes (the service went away).
 */
export const PDF_RENDERER_PROGRAM = `
const [pdfjsUrl, workerUrl, canvasUrl, fontsDir] = process.argv.slice(1);
const { readFile, writeFile } = await import('node:fs/promises');
const { createInterface } = await import('node:readline');
const [pdfjs, worker, { createCanvas }] = await Promise.all([
  import(pdfjsUrl), import(workerUrl), import(canvasUrl),
]);
globalThis.pdfjsWorker = worker;
const answer = (value) => process.stdout.write(JSON.stringify(value) + '\\n');

// A name /JavaScript or /JS, its letters possibly written as #xx escapes (/J#61vaScript, /#4AS).
const scriptName = (text) => {
  for (const [, name] of text.matchAll(/\\/((?:J|#4[aA])(?:[A-Za-z0-9]|#[0-9A-Fa-f]{2})*)/g)) {
    const plain = name.replace(/#([0-9A-Fa-f]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)));
    if (plain === 'JavaScript' || plain === 'JS') return true;
  }
  return false;
};

async function render({ input, output, box, maxPages, maxPixels }) {
  const data = new Uint8Array(await readFile(input));
  if (scriptName(Buffer.from(data.buffer).toString('latin1'))) return { refused: 'it carries JavaScript' };
  const task = pdfjs.getDocument({
    data, isEvalSupported: false, enableXfa: false, disableFontFace: true, useSystemFonts: false,
    standardFontDataUrl: fontsDir, maxImageSize: maxPixels, stopAtErrors: true, verbosity: 0,
  });
  try {
    const document = await task.promise;
    if (document.numPages > maxPages) {
      return { refused: 'it has ' + document.numPages + ' pages, more than ' + maxPages };
    }
    const actions = await document.getJSActions();
    if (actions && (actions.size ?? Object.keys(actions).length) > 0) return { refused: 'it carries JavaScript' };
    const page = await document.getPage(1);
    const natural = page.getViewport({ scale: 1 });
    const scale = Math.min(box / natural.width, box / natural.height);
    const viewport = page.getViewport({ scale });
    const width = Math.max(1, Math.round(viewport.width));
    const height = Math.max(1, Math.round(viewport.height));
    const canvas = createCanvas(width, height);
    const context = canvas.getContext('2d');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, width, height);
    await page.render({ canvas, canvasContext: context, viewport, background: '#ffffff' }).promise;
    await writeFile(output, canvas.data());
    return { pages: document.numPages, width, height };
  } finally {
    await task.destroy();
  }
}

for await (const line of createInterface({ input: process.stdin })) {
  try {
    answer(await render(JSON.parse(line)));
  } catch (error) {
    answer({ error: String(error && error.message ? error.message : error).slice(0, 300) });
  }
}
process.exit(0);
`;
