import { conversionOptionsOrThrow } from './asset-images.service';
import { assetTypeOf, contentTypeOf } from './content-types';

describe('contentTypeOf', () => {
  it('trusts the leading bytes over the file name', () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]);
    expect(contentTypeOf('report.pdf', png)).toBe('image/png');
    expect(contentTypeOf('x', Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(contentTypeOf('x', Buffer.from('RIFF\0\0\0\0WEBPVP8 ', 'latin1'))).toBe('image/webp');
    expect(contentTypeOf('x', Buffer.from('\0\0\0\x18ftypisom', 'latin1'))).toBe('video/mp4');
    expect(contentTypeOf('x', Buffer.from('ID3\x04', 'latin1'))).toBe('audio/mpeg');
  });

  it('falls back to the extension, then to octet-stream', () => {
    expect(contentTypeOf('clip.MOV', Buffer.from('????'))).toBe('video/quicktime');
    expect(contentTypeOf('song.flac', Buffer.alloc(0))).toBe('audio/flac');
    expect(contentTypeOf('notes', Buffer.from('hello'))).toBe('application/octet-stream');
  });

  it('maps media types to asset types', () => {
    expect(['image/png', 'video/mp4', 'audio/wav', 'application/pdf'].map(assetTypeOf)).toEqual([
      'Image',
      'Video',
      'Audio',
      'File',
    ]);
  });
});

describe('conversionOptionsOrThrow', () => {
  it('reads sides, format and cropToFit', () => {
    expect(conversionOptionsOrThrow({ width: '10', format: 'PNG' })).toEqual({
      width: 10,
      height: undefined,
      format: 'png',
      cropToFit: false,
    });
    expect(conversionOptionsOrThrow({ width: '4096', height: '1', cropToFit: 'true' })).toMatchObject({
      format: 'jpg',
      cropToFit: true,
    });
  });

  it.each([
    [{}],
    [{ width: '0' }],
    [{ width: '4097' }],
    [{ width: '1.5' }],
    [{ width: ['1', '2'] }],
    [{ width: '10', format: 'tiff' }],
    [{ width: '10', cropToFit: 'true' }],
    [{ width: '10', cropToFit: '1' }],
  ])('refuses %j', (query) => {
    expect(() => conversionOptionsOrThrow(query)).toThrow();
  });
});
