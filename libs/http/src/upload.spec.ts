import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { dispositionFilename, sizeLimited, uploadFilenameOrThrow } from './upload';

describe('upload headers', () => {
  it.each([
    ['attachment; filename=photo.jpg', 'photo.jpg'],
    ['Attachment; FILENAME="my photo.jpg"', 'my photo.jpg'],
    ['attachment; filename="a \\"quoted\\" name.png"', 'a "quoted" name.png'],
    ['attachment; filename="fallback.jpg"; filename*=UTF-8\'\'caf%C3%A9.jpg', 'café.jpg'],
    ["attachment; filename*=iso-8859-1'en'%E9t%E9.png", 'été.png'],
    ['attachment; size=12; filename=x.gif', 'x.gif'],
  ])('reads %s', (header, expected) => {
    expect(dispositionFilename(header)).toBe(expected);
  });

  it.each([
    'inline; filename=a.jpg',
    'attachment',
    'attachment; name=a.jpg',
    'attachment; filename="open',
    'filename=a.jpg',
  ])('finds no file name in %s', (header) => {
    expect(dispositionFilename(header)).toBeUndefined();
  });

  it('refuses other content types with 415 and a missing name with 400', () => {
    expect(() => uploadFilenameOrThrow('image/png', 'attachment; filename=a.png')).toThrow(
      expect.objectContaining({ kind: 'unsupported-content' }),
    );
    expect(() => uploadFilenameOrThrow(undefined, 'attachment; filename=a.png')).toThrow(
      expect.objectContaining({ kind: 'unsupported-content' }),
    );
    expect(() => uploadFilenameOrThrow('application/octet-stream', undefined)).toThrow(
      expect.objectContaining({ kind: 'invalid-input' }),
    );
    expect(() => uploadFilenameOrThrow('application/octet-stream', 'attachment; filename=""')).toThrow(
      expect.objectContaining({ kind: 'invalid-input' }),
    );
    expect(uploadFilenameOrThrow('Application/Octet-Stream; x=1', 'attachment; filename=a.png')).toBe(
      'a.png',
    );
  });
});

describe('sizeLimited', () => {
  it('passes a body within the limit through', async () => {
    const { stream, exceeded } = sizeLimited(Readable.from(['abc', 'def']), 6, () => new Error('too large'));
    expect(await text(stream)).toBe('abcdef');
    expect(exceeded()).toBe(false);
  });

  it('fails past the limit and drains the source', async () => {
    const source = Readable.from(['abc', 'def', 'ghi']);
    const { stream, exceeded } = sizeLimited(source, 5, () => new Error('too large'));
    await expect(text(stream)).rejects.toThrow('too large');
    expect(exceeded()).toBe(true);
    if (!source.readableEnded) await new Promise((resolve) => source.once('end', resolve));
    expect(source.readableEnded).toBe(true);
  });

  it('keeps a failure that happens before anyone consumes the stream, for the consumer to see', async () => {
    const { stream } = sizeLimited(Readable.from(['abc', 'def']), 2, () => new Error('too large'));
    await new Promise((resolve) => setImmediate(resolve));
    await expect(text(stream)).rejects.toThrow('too large');
  });

  it('fails when the source breaks off', async () => {
    const source = new Readable({ read() {} });
    const { stream } = sizeLimited(source, 100, () => new Error('too large'));
    const reading = text(stream);
    source.push('abc');
    source.destroy();
    await expect(reading).rejects.toThrow('the upload ended before its last byte');
  });
});
