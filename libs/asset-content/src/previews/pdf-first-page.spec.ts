import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { DecoderFailed } from './decoder-child';
import { PdfRenderers } from './pdf-first-page';

/** A one-page PDF of 600×800 points, a blue rectangle on it. */
function onePagePdf(): Buffer {
  const content = '0 0 1 rg 50 50 500 700 re f';
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 600 800] /Contents 4 0 R >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ];
  let text = '%PDF-1.4\n';
  const starts = objects.map((body, index) => {
    const start = text.length;
    text += `${index + 1} 0 obj\n${body}\nendobj\n`;
    return start;
  });
  const table = starts.map((start) => `${String(start).padStart(10, '0')} 00000 n \n`).join('');
  return Buffer.from(
    `${text}xref\n0 5\n0000000000 65535 f \n${table}trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n${text.length}\n%%EOF\n`,
    'latin1',
  );
}

const REQUEST = { box: 200, maxPages: 10, maxPixels: 10_000_000 };

describe('PDF renderers kept between files', () => {
  let folder: string;
  let pdf: string;

  beforeAll(() => {
    folder = mkdtempSync(path.join(tmpdir(), 'dam-pdf-renderer-'));
    pdf = path.join(folder, 'page.pdf');
    writeFileSync(pdf, onePagePdf());
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('renders one file after another in the same child, as raw RGBA pixels', async () => {
    const renderers = new PdfRenderers({ timeoutMs: 60_000, maxMemoryBytes: 2 ** 30 });
    try {
      const output = path.join(folder, 'page.rgba');
      expect(await renderers.render(pdf, output, REQUEST)).toEqual({ pages: 1, width: 150, height: 200 });
      expect(statSync(output).size).toBe(150 * 200 * 4);
      const [first] = renderers.idlePids;
      expect(first).toBeDefined();
      await renderers.render(pdf, output, REQUEST);
      expect(renderers.idlePids).toEqual([first]);
    } finally {
      renderers.close();
    }
  }, 60_000);

  it('kills a child past the time limit and keeps none of it', async () => {
    const renderers = new PdfRenderers({ timeoutMs: 1, maxMemoryBytes: 2 ** 30 });
    try {
      const output = path.join(folder, 'late.rgba');
      const late = await renderers.render(pdf, output, REQUEST).catch((error: unknown) => error);
      expect(late).toBeInstanceOf(DecoderFailed);
      expect((late as DecoderFailed).timedOut).toBe(true);
      expect(renderers.idlePids).toEqual([]);
    } finally {
      renderers.close();
    }
  }, 60_000);
});
