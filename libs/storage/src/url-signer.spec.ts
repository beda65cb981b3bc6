import { DataSource } from 'typeorm';
import { AppConfig } from '@dam/core';
import { Settings } from '@dam/database';
import { UrlSigner } from './url-signer';

const SECRET = 'a-test-secret-that-is-long-enough-0123456789';
const IN_AN_HOUR = Math.floor(Date.now() / 1000) + 3600;

/** Settings on a DataSource that is never connected: the configured secret means it is never queried. */
function unusedSettings(): Settings {
  return new Settings(new DataSource({ type: 'better-sqlite3', database: ':memory:' }));
}

async function signer(env: Record<string, string> = {}): Promise<UrlSigner> {
  const config = AppConfig.fromEnv({ DAM_URL_SIGNING_SECRET: SECRET, ...env });
  const instance = new UrlSigner(config, unusedSettings());
  await instance.onModuleInit();
  return instance;
}

function withParam(url: string, name: string, value: string | undefined): string {
  const parsed = new URL(url);
  if (value === undefined) parsed.searchParams.delete(name);
  else parsed.searchParams.set(name, value);
  return parsed.toString();
}

describe('UrlSigner', () => {
  const url = 'https://dam.example.com/files/assets/1/2?filename=report.pdf&contentType=application%2Fpdf';

  it('appends timestamp and key, and accepts what it signed', async () => {
    const urls = await signer();
    const signed = urls.sign(url, IN_AN_HOUR);
    const parsed = new URL(signed);
    expect(parsed.searchParams.get('timestamp')).toBe(String(IN_AN_HOUR));
    expect(parsed.searchParams.get('key')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(parsed.searchParams.get('filename')).toBe('report.pdf');
    expect(urls.verify(signed)).toBe('valid');
  });

  it.each([
    ['on', { DAM_SIGNED_URL_ALLOW_NEVER: 'true' }, 'valid'],
    ['off (the default)', {}, 'expired'],
  ])(
    'accepts timestamp 0 (never expires) only with DAM_SIGNED_URL_ALLOW_NEVER %s',
    async (_flag, env: Record<string, string>, expected) => {
      const urls = await signer(env);
      const signed = urls.sign(url, 0);
      expect(new URL(signed).searchParams.get('timestamp')).toBe('0');
      expect(urls.verify(signed, 'GET', Date.UTC(2100, 0, 1))).toBe(expected);
      expect(urls.verify(withParam(signed, 'timestamp', '1'))).toBe('invalid');
    },
  );

  it('ignores the origin, so URLs keep working behind proxies, and accepts a path with query', async () => {
    const urls = await signer();
    const signed = new URL(urls.sign(url, IN_AN_HOUR));
    expect(urls.verify(`http://10.0.0.5:3000${signed.pathname}${signed.search}`)).toBe('valid');
    expect(urls.verify(`${signed.pathname}${signed.search}`)).toBe('valid');
  });

  it('signs a path with query and returns a path with query', async () => {
    const urls = await signer();
    const signed = urls.sign('/rest/assets/5/content?x=1', IN_AN_HOUR);
    expect(signed).toMatch(/^\/rest\/assets\/5\/content\?x=1&timestamp=\d+&key=/);
    expect(urls.verify(signed)).toBe('valid');
  });

  it('does not depend on the order of query parameters or their percent-encoding', async () => {
    const urls = await signer();
    const signed = new URL(urls.sign(url, IN_AN_HOUR));
    const reordered = [...signed.searchParams].reverse();
    const query = reordered.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&');
    expect(urls.verify(`${signed.pathname}?${query}`)).toBe('valid');
    expect(urls.verify(`${signed.pathname.replace('assets', 'asset%73')}${signed.search}`)).toBe('valid');
  });

  it.each([
    ['a changed path', (signed: string) => signed.replace('/assets/1/2', '/assets/1/3')],
    ['an extra path segment', (signed: string) => signed.replace('/assets/1/2', '/assets/1/2/x')],
    [
      'an encoded slash in place of a slash',
      (signed: string) => signed.replace('/assets/1/2', '/assets%2F1/2'),
    ],
    ['a changed file name', (signed: string) => withParam(signed, 'filename', 'other.pdf')],
    ['a removed file name', (signed: string) => withParam(signed, 'filename', undefined)],
    ['a changed content type', (signed: string) => withParam(signed, 'contentType', 'text/html')],
    ['an added parameter', (signed: string) => withParam(signed, 'userId', '1')],
    ['a later timestamp', (signed: string) => withParam(signed, 'timestamp', String(IN_AN_HOUR + 1))],
    ['a malformed timestamp', (signed: string) => withParam(signed, 'timestamp', `${IN_AN_HOUR}.0`)],
    ['a missing timestamp', (signed: string) => withParam(signed, 'timestamp', undefined)],
    ['a missing key', (signed: string) => withParam(signed, 'key', undefined)],
    [
      'a truncated key',
      (signed: string) => withParam(signed, 'key', new URL(signed).searchParams.get('key')?.slice(1)),
    ],
    [
      'a flipped key character',
      (signed: string) => signed.replace(/key=(.)/, (_m, c: string) => `key=${c === 'A' ? 'B' : 'A'}`),
    ],
    ['a key with a stray character', (signed: string) => signed.replace(/key=/, 'key=!')],
    ['a second key', (signed: string) => `${signed}&key=x`],
    ['malformed percent-encoding', (signed: string) => signed.replace('/assets/', '/assets%zz/')],
  ])('refuses %s', async (_label, tamper) => {
    const urls = await signer();
    expect(urls.verify(tamper(urls.sign(url, IN_AN_HOUR)))).toBe('invalid');
  });

  it('binds the method', async () => {
    const urls = await signer();
    expect(urls.verify(urls.sign(url, IN_AN_HOUR), 'PUT')).toBe('invalid');
    expect(urls.verify(urls.sign(url, IN_AN_HOUR, 'PUT'), 'PUT')).toBe('valid');
  });

  it('reports expiry only for authentic URLs', async () => {
    const urls = await signer();
    const past = Math.floor(Date.now() / 1000) - 1;
    expect(urls.verify(urls.sign(url, past))).toBe('expired');
    expect(urls.verify(urls.sign(url, 1_000), 'GET', 999_999)).toBe('valid');
    expect(urls.verify(urls.sign(url, 1_000), 'GET', 1_000_000)).toBe('expired');
    expect(urls.verify(withParam(urls.sign(url, past), 'filename', 'x'))).toBe('invalid');
  });

  it('replaces a key and timestamp already on the URL', async () => {
    const urls = await signer();
    const resigned = urls.sign(urls.sign(url, 10), IN_AN_HOUR);
    expect(new URL(resigned).searchParams.getAll('key')).toHaveLength(1);
    expect(urls.verify(resigned)).toBe('valid');
  });

  it('refuses URLs signed with another secret', async () => {
    const other = await signer({ DAM_URL_SIGNING_SECRET: `${SECRET}-other` });
    expect((await signer()).verify(other.sign(url, IN_AN_HOUR))).toBe('invalid');
  });

  it('signs the path below DAM_PUBLIC_URL, which a proxy strips before the service sees it', async () => {
    const urls = await signer({ DAM_PUBLIC_URL: 'https://example.com/dam' });
    const signed = new URL(urls.sign('https://example.com/dam/files/a/b?filename=x', IN_AN_HOUR));
    expect(urls.verify(`${signed.pathname.replace(/^\/dam/, '')}${signed.search}`)).toBe('valid');
    expect(urls.verify(signed.toString())).toBe('valid');
  });

  describe('secret kept in the database', () => {
    let dataSource: DataSource;

    beforeEach(async () => {
      dataSource = await new DataSource({ type: 'better-sqlite3', database: ':memory:' }).initialize();
      await dataSource.query(
        'CREATE TABLE settings (name varchar(100) PRIMARY KEY NOT NULL, value text NOT NULL)',
      );
    });

    afterEach(async () => {
      await dataSource.destroy();
    });

    it('is generated once and shared by instances booting together', async () => {
      const config = AppConfig.fromEnv({});
      const instances = [
        new UrlSigner(config, new Settings(dataSource)),
        new UrlSigner(config, new Settings(dataSource)),
        new UrlSigner(config, new Settings(dataSource)),
      ];
      await Promise.all(instances.map((instance) => instance.onModuleInit()));
      const rows = (await dataSource.query('SELECT name, value FROM settings')) as Array<{
        name: string;
        value: string;
      }>;
      expect(rows).toEqual([
        { name: 'url_signing_secret', value: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) },
      ]);
      const signed = instances[0].sign(url, IN_AN_HOUR);
      expect(instances[1].verify(signed)).toBe('valid');
      expect(instances[2].verify(signed)).toBe('valid');
    });

    it('survives a restart', async () => {
      const config = AppConfig.fromEnv({});
      const before = new UrlSigner(config, new Settings(dataSource));
      await before.onModuleInit();
      const signed = before.sign(url, IN_AN_HOUR);
      const after = new UrlSigner(config, new Settings(dataSource));
      await after.onModuleInit();
      expect(after.verify(signed)).toBe('valid');
    });

    it('reads the winner after losing the insert race', async () => {
      const winner = 'w'.repeat(43);
      await dataSource.query("INSERT INTO settings (name, value) VALUES ('url_signing_secret', ?)", [winner]);
      // The race: this instance's first read happened before the winner's insert, so it finds nothing.
      const settings = new Settings(dataSource);
      const get = settings.get.bind(settings);
      let reads = 0;
      jest
        .spyOn(settings, 'get')
        .mockImplementation(async (name: string) => (reads++ === 0 ? undefined : get(name)));
      const loser = new UrlSigner(AppConfig.fromEnv({}), settings);
      await loser.onModuleInit();
      expect(reads).toBe(2);
      const reference = await signer({ DAM_URL_SIGNING_SECRET: winner });
      expect(loser.sign(url, IN_AN_HOUR)).toBe(reference.sign(url, IN_AN_HOUR));
    });

    it('prefers DAM_URL_SIGNING_SECRET and leaves the table alone', async () => {
      const configured = new UrlSigner(
        AppConfig.fromEnv({ DAM_URL_SIGNING_SECRET: SECRET }),
        new Settings(dataSource),
      );
      await configured.onModuleInit();
      expect(await dataSource.query('SELECT * FROM settings')).toEqual([]);
      expect(configured.verify((await signer()).sign(url, IN_AN_HOUR))).toBe('valid');
    });
  });
});
