import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { ZipSource, zipStream } from '@dam/shares';
import { readZip } from './helpers/zip-reader';

/** A source of `data` read in chunks of at most `chunk` bytes, that says it has `size` bytes. */
function source(filename: string, data: Buffer, size = data.length, chunk = 1000): ZipSource {
  const chunks: Buffer[] = [];
  for (let at = 0; at < data.length; at += chunk) chunks.push(data.subarray(at, at + chunk));
  return { filename, size, open: () => Promise.resolve(Readable.from(chunks)) };
}

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The shares' ZIP writer alone (issue 33): records, ZIP64, CRC-32, and sources that fail or run short. */
describe('zipStream', () => {
  const files = [randomBytes(70_000), randomBytes(0), randomBytes(5), randomBytes(123_457)];
  const names = ['a.jpg', 'A.JPG', '../x', 'été.txt'];

  it.each([
    ['ZIP32 records', false],
    ['ZIP64 records (as past 4 GiB)', true],
  ])('writes %s that read back with their CRC-32, in the length announced', async (_, zip64) => {
    const { stream, length } = await zipStream(
      files.map((data, index) => source(names[index], data)),
      zip64,
    );
    const zip = await bytesOf(stream);
    expect(zip).toHaveLength(length);
    const entries = readZip(zip);
    expect(entries.map((entry) => entry.name)).toEqual(['a.jpg', 'A (2).JPG', '.._x', 'été.txt']);
    entries.forEach((entry, index) => {
      expect(entry.data.equals(files[index])).toBe(true);
      expect(entry.zip64).toBe(zip64);
    });
  });

  it('is an empty archive without sources', async () => {
    const { stream, length } = await zipStream([]);
    const zip = await bytesOf(stream);
    expect(zip).toHaveLength(length);
    expect(readZip(zip)).toEqual([]);
  });

  it('fails when a source gives fewer or more bytes than its size', async () => {
    for (const size of [files[0].length + 1, files[0].length - 1]) {
      const { stream } = await zipStream([source('a.bin', files[0], size)]);
      await expect(bytesOf(stream)).rejects.toThrow(/bytes where/);
    }
  });

  it('fails when a source fails mid-file, and lets go of the file when the archive is let go', async () => {
    const failing: ZipSource = {
      filename: 'a.bin',
      size: 10,
      open: () =>
        Promise.resolve(
          new Readable({
            read() {
              this.destroy(new Error('store gone'));
            },
          }),
        ),
    };
    await expect(bytesOf((await zipStream([failing])).stream)).rejects.toThrow('store gone');
    const file = new Readable({ read() {} });
    const { stream } = await zipStream([{ filename: 'b.bin', size: 10, open: () => Promise.resolve(file) }]);
    stream.resume();
    await new Promise((resolve) => setImmediate(resolve));
    stream.destroy();
    await new Promise((resolve) => file.once('close', resolve));
    expect(file.destroyed).toBe(true);
  });
});
