import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DigestBatches, DigestBatchSettings, DigestMatch } from './digest-batches';
import { ImportRow } from './import-row';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('DigestBatches', () => {
  let root: string;
  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'digest-batches-'));
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  /** Rows of files holding `contents` (`''` is an empty file). */
  const rowsOf = (contents: string[]): ImportRow[] =>
    contents.map((content, index) => {
      const file = path.join(root, `${Date.now()}-${Math.random()}-${index}.txt`);
      fs.writeFileSync(file, content);
      return { path: `f${index}`, file, categories: [], attributes: [] };
    });

  const settings = (lookup: DigestBatchSettings['lookup']): DigestBatchSettings => ({
    chunkSize: 1024 * 1024,
    batchSize: 2,
    batchBytes: 1024 * 1024,
    ahead: 1,
    hashParallel: 2,
    lookup,
  });

  it('looks digests up batchSize at a time and gives each row the matches of its own bytes', async () => {
    const asked: string[][] = [];
    const held = { fullAssetUrl: 'https://dam/rest/assets/7', contentSha256: sha256('b') };
    const rows = rowsOf(['a', 'b', 'c', 'b', 'e']);
    const batches = new DigestBatches(rows, [1, 1, 1, 1, 1], {
      ...settings(async (digests) => {
        asked.push(digests);
        return digests.includes(held.contentSha256) ? [held] : [];
      }),
    });
    const known = [];
    for (let index = 0; index < rows.length; index++) known.push(await batches.of(index));
    expect(asked).toEqual([[sha256('a'), sha256('b')], [sha256('c'), sha256('b')], [sha256('e')]]);
    expect(known.map((row) => row.matches)).toEqual([[], [held], [], [held], []]);
    // The first row with some bytes, in row order: the later `b` waits for row 1.
    expect(known.map((row) => row.first.index)).toEqual([0, 1, 2, 1, 4]);
  });

  it('fails the rows of a batch whose lookup failed, or whose file cannot be read, and no other', async () => {
    const rows = rowsOf(['x', 'y', '', 'y']);
    let calls = 0;
    const batches = new DigestBatches(rows, [1, 1, 0, 1], {
      ...settings(async (): Promise<DigestMatch[]> => {
        if (++calls === 1) throw new Error('the lookup failed');
        return [];
      }),
    });
    await expect(batches.of(0)).rejects.toThrow('the lookup failed');
    await expect(batches.of(1)).rejects.toThrow('the lookup failed');
    await expect(batches.of(2)).rejects.toThrow('f2 is empty');
    // Row 3 has the bytes of row 1, which failed: it is told so instead of waiting for ever.
    const later = await batches.of(3);
    expect(later.first.index).toBe(1);
    await expect(later.first.outcome).resolves.toBeUndefined();
  });
});
