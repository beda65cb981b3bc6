import {
  ChunkTooLarge,
  NotATempFileUrl,
  TempFileNotFound,
  TempFileNotUsable,
} from './temp-chunked-file-errors';

describe('temp chunked file errors keep their wire messages', () => {
  const id = '0b8f8d7e-7c4b-4a53-9c39-2f0a5c1d4e6f';

  it.each([
    [new TempFileNotFound(id), 'unknown-resource', `temp chunked file ${id} does not exist`],
    [
      new TempFileNotFound('x'.repeat(50)),
      'unknown-resource',
      `temp chunked file ${'x'.repeat(40)} does not exist`,
    ],
    [new TempFileNotUsable(id), 'invalid-input', `temp chunked file ${id} does not exist or is not yours`],
    [new NotATempFileUrl('http://x/y'), 'invalid-input', '"http://x/y" is not a temp chunked file URL'],
    [new NotATempFileUrl(42), 'invalid-input', 'the value is not a temp chunked file URL'],
    [new ChunkTooLarge(10), 'too-large', 'a chunk may hold at most 10 bytes'],
  ])('%p', (error, kind, message) => {
    expect(error.kind).toBe(kind);
    expect(error.message).toBe(message);
  });
});
