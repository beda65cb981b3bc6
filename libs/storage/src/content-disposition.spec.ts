import fc from 'fast-check';
import { validateHeaderValue } from 'node:http';
import { contentDisposition, isSafeInlineType, safeFilename } from './content-disposition';

describe('contentDisposition', () => {
  it('offers a plain ASCII name as a quoted filename only', () => {
    expect(contentDisposition('report 2024.pdf')).toBe('attachment; filename="report 2024.pdf"');
  });

  it('is a bare attachment without a name', () => {
    expect(contentDisposition(undefined)).toBe('attachment');
  });

  it('adds an RFC 8187 filename* for names beyond ASCII, with an ASCII fallback', () => {
    expect(contentDisposition('Résumé 2024.pdf')).toBe(
      `attachment; filename="Resume 2024.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%202024.pdf`,
    );
    expect(contentDisposition('報告.pdf')).toBe(
      `attachment; filename="__.pdf"; filename*=UTF-8''%E5%A0%B1%E5%91%8A.pdf`,
    );
  });

  it("percent-encodes the characters RFC 8187 does not allow raw: ' ( ) *", () => {
    expect(contentDisposition("é's (1)*.txt")).toBe(
      `attachment; filename="e's (1)*.txt"; filename*=UTF-8''%C3%A9%27s%20%281%29%2A.txt`,
    );
  });

  it('keeps % before two hex digits out of the fallback, where some clients would decode it', () => {
    expect(contentDisposition('50%41.txt')).toBe(
      `attachment; filename="50_41.txt"; filename*=UTF-8''50%2541.txt`,
    );
    expect(contentDisposition('100%ff %.txt')).toBe(
      `attachment; filename="100_ff %.txt"; filename*=UTF-8''100%25ff%20%25.txt`,
    );
  });

  it('offers a name with any other % as a quoted filename only (no filename* to sign)', () => {
    expect(contentDisposition('100% red.jpg')).toBe('attachment; filename="100% red.jpg"');
    expect(contentDisposition('5%.txt')).toBe('attachment; filename="5%.txt"');
    expect(contentDisposition('%zz%4')).toBe('attachment; filename="%zz%4"');
  });

  it('neutralises a hostile name: no header injection, no path, no NUL', () => {
    const header = contentDisposition('../evil\r\nX-Injected: 1\u0000.txt');
    expect(header).toBe('attachment; filename="evilX-Injected: 1.txt"');
    expect(() => validateHeaderValue('Content-Disposition', header)).not.toThrow();
  });

  it('drops quotes, backslashes, slashes and bidi overrides', () => {
    expect(safeFilename('a"b\\c/d.txt')).toBe('abcd.txt');
    expect(safeFilename('invoice\u202Etxt.exe')).toBe('invoicetxt.exe');
    expect(safeFilename('C:\\Windows\\system32\\evil.dll')).toBe('C:Windowssystem32evil.dll');
  });

  it('keeps look-alike quotes, slashes and dots from turning into real ones in the ASCII fallback', () => {
    const header = contentDisposition('\u2024\uFF0E\uFF0Fetc\uFF0Fpasswd\uFF02.txt');
    expect(header).toMatch(/^attachment; filename="etcpasswd\.txt"; filename\*=UTF-8''/);
  });

  it('falls back to "download" when nothing usable is left', () => {
    expect(safeFilename('')).toBe('download');
    expect(safeFilename('..')).toBe('download');
    expect(safeFilename('/\\"\r\n')).toBe('download');
    expect(contentDisposition('...')).toBe('attachment; filename="download"');
  });

  it('shortens very long names to 200 characters', () => {
    expect([...safeFilename(`${'é'.repeat(300)}.txt`)]).toHaveLength(200);
  });

  it('always yields a valid, ASCII-only header with a clean quoted name', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (name) => {
        const header = contentDisposition(name);
        expect(() => validateHeaderValue('Content-Disposition', header)).not.toThrow();
        expect(header).toMatch(/^[\x20-\x7e]+$/);
        const quoted =
          /^attachment; filename="([^"]*)"(; filename\*=UTF-8''[A-Za-z0-9%!#$&+.^_`|~-]+)?$/.exec(header);
        expect(quoted).not.toBeNull();
        expect(quoted?.[1]).not.toMatch(/[\\/]|%[0-9A-Fa-f]{2}/);
        expect(quoted?.[1]).not.toMatch(/^\./);
      }),
    );
  });
  it.each([
    ['image/jpeg', 'inline'],
    ['IMAGE/PNG; charset=binary', 'inline'],
    ['image/gif', 'inline'],
    ['image/webp', 'inline'],
    ['image/avif', 'inline'],
    ['image/svg+xml', 'attachment'],
    ['text/html', 'attachment'],
    ['application/xhtml+xml', 'attachment'],
    ['application/pdf', 'attachment'],
    ['application/octet-stream', 'attachment'],
    [undefined, 'attachment'],
  ])('a file of type %s is sent as %s', (type, kind) => {
    expect(isSafeInlineType(type)).toBe(kind === 'inline');
    expect(contentDisposition('f.bin', type)).toBe(`${kind}; filename="f.bin"`);
    expect(contentDisposition(undefined, type)).toBe(kind);
  });
});
