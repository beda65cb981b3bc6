import { AppConfig, RequestContext } from '@dam/core';
import { UrlService } from './url.service';

function service(publicUrl?: string): UrlService {
  return new UrlService(AppConfig.fromEnv(publicUrl === undefined ? {} : { DAM_PUBLIC_URL: publicUrl }));
}

function inRequestFrom<T>(origin: string, fn: () => T): T {
  return RequestContext.run({ requestId: 'r', origin, acceptLanguages: [], contentLanguage: undefined }, fn);
}

describe('UrlService: reading the URLs clients send', () => {
  describe('with DAM_PUBLIC_URL https://dam.example.com/dam (origin and path prefix)', () => {
    const urls = service('https://dam.example.com/dam');

    it.each([
      ['https://dam.example.com/dam/rest/assets/12', 12],
      ['HTTPS://DAM.EXAMPLE.COM:443/dam/rest/assets/12', 12],
      ['https://dam.example.com/dam/rest/assets/12?x=1#y', 12],
      ['/dam/rest/assets/7', 7],
    ])('reads %s as asset %d', (url, id) => {
      expect(urls.parseIdOrThrow(url, 'assets', 'an asset', 'parents')).toBe(id);
    });

    it.each([
      ['another host', 'http://elsewhere.invalid/rest/assets/1'],
      ['another scheme', 'http://dam.example.com/dam/rest/assets/1'],
      ['another port', 'https://dam.example.com:8443/dam/rest/assets/1'],
      ['no path prefix', 'https://dam.example.com/rest/assets/1'],
      ['another path prefix', 'https://dam.example.com/other/dam/rest/assets/1'],
      ['a prefix that only starts alike', 'https://dam.example.com/damx/rest/assets/1'],
      ['credentials', 'https://user:pw@dam.example.com/dam/rest/assets/1'],
      ['another scheme kind', 'ftp://dam.example.com/dam/rest/assets/1'],
      ['a root-relative path without the prefix', '/rest/assets/1'],
    ])('refuses %s with a 400 naming the field', (_case, url) => {
      expect(() => urls.parseIdOrThrow(url, 'assets', 'an asset', 'parents')).toThrow(
        expect.objectContaining({
          kind: 'invalid-input',
          message: `parents: ${url} is not a URL of this service`,
        }),
      );
    });

    it.each([
      ['a URL of another kind', 'https://dam.example.com/dam/rest/categories/1'],
      ['a URL outside the REST root', 'https://dam.example.com/dam/files/assets/1'],
      ['a collection URL', 'https://dam.example.com/dam/rest/assets'],
      ['a sub-resource', 'https://dam.example.com/dam/rest/assets/1/content'],
      ['a bare number, which is no URL', '12'],
      ['a zero id', 'https://dam.example.com/dam/rest/assets/0'],
      ['a non-numeric id', 'https://dam.example.com/dam/rest/assets/abc'],
      ['a non-string', 12],
      ['null', null],
    ])('refuses %s as not an asset URL', (_case, url) => {
      expect(() => urls.parseIdOrThrow(url, 'assets', 'an asset', 'parents')).toThrow(/is not an asset URL$/);
    });

    it('ignores the request origin: DAM_PUBLIC_URL decides', () => {
      inRequestFrom('http://10.0.0.5:3000', () => {
        expect(
          urls.parseIdOrThrow('https://dam.example.com/dam/rest/assets/3', 'assets', 'an asset', 'url'),
        ).toBe(3);
        expect(() =>
          urls.parseIdOrThrow('http://10.0.0.5:3000/rest/assets/3', 'assets', 'an asset', 'url'),
        ).toThrow('url: http://10.0.0.5:3000/rest/assets/3 is not a URL of this service');
      });
    });

    it('shortens a long foreign URL in the message', () => {
      const long = `http://elsewhere.invalid/${'a'.repeat(500)}`;
      expect(() => urls.matchRest(long, 'assets/:id', 'parents')).toThrow(
        /^parents: http:\/\/elsewhere\.invalid\/a+\.\.\. is not/,
      );
    });
  });

  describe('without DAM_PUBLIC_URL: the origin of the request', () => {
    const urls = service();

    it('accepts that origin (and paths on it), refuses others', () => {
      inRequestFrom('http://127.0.0.1:4000', () => {
        expect(
          urls.matchRest('http://127.0.0.1:4000/rest/assets/5/content', 'assets/:id/content', 'url'),
        ).toEqual({
          id: '5',
        });
        expect(
          urls.parseIdOrThrow('/rest/access-levels/2', 'access-levels', 'an access level', 'parent'),
        ).toBe(2);
        expect(() =>
          urls.parseIdOrThrow(
            'http://localhost:4000/rest/access-levels/2',
            'access-levels',
            'an access level',
            'parent',
          ),
        ).toThrow('parent: http://localhost:4000/rest/access-levels/2 is not a URL of this service');
      });
    });

    it('decodes percent-encoded segments', () => {
      inRequestFrom('http://127.0.0.1:4000', () => {
        expect(
          urls.matchRest(
            'http://127.0.0.1:4000/rest/temp-chunked-files/a%2Db',
            'temp-chunked-files/:id',
            'f',
          ),
        ).toEqual({
          id: 'a-b',
        });
        expect(
          urls.matchRest(
            'http://127.0.0.1:4000/rest/temp-chunked-files/%E0%A4%A',
            'temp-chunked-files/:id',
            'f',
          ),
        ).toBeUndefined();
      });
    });

    it('resolveOwnOrThrow gives the parsed URL, or undefined for what is no URL text', () => {
      inRequestFrom('http://127.0.0.1:4000', () => {
        expect(urls.resolveOwnOrThrow('http://127.0.0.1:4000/rest?x=1', 'url')?.search).toBe('?x=1');
        expect(urls.resolveOwnOrThrow(42, 'url')).toBeUndefined();
        expect(urls.resolveOwnOrThrow(`http://127.0.0.1:4000/${'a'.repeat(3000)}`, 'url')).toBeUndefined();
      });
    });
  });
});
