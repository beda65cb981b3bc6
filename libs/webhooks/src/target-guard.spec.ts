import { AppConfig } from '@dam/core';
import { WebhookTargets } from './target-guard';

describe('webhook target guard', () => {
  const targets = (allowed = '') =>
    new WebhookTargets(AppConfig.fromEnv({ DAM_WEBHOOK_ALLOWED_HOSTS: allowed }));

  it.each([
    ['http://127.0.0.1:8080/hook', 'loopback'],
    ['http://[::1]/hook', 'loopback'],
    ['http://10.0.0.5/hook', 'private'],
    ['http://169.254.169.254/latest/meta-data', 'link-local'],
    ['http://[::127.0.0.1]/hook', 'IPv4-compatible'],
    ['http://[::ffff:0:7f00:1]/hook', 'IPv4-translated'],
    ['http://[64:ff9b:1::7f00:1]/hook', 'NAT64'],
    ['http://[64:ff9b::a00:1]/hook', 'NAT64'],
    ['http://[2002:7f00:1::]/hook', '6to4'],
    ['http://[2002:a00:1::]/hook', '6to4'],
    ['http://[::a00:1]/hook', 'IPv4-compatible'],
    ['http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook', 'Teredo'],
    ['http://[fec0::1]/hook', 'site-local'],
    ['http://[::ffff:127.0.0.1]/hook', 'loopback'],
    ['http://0x7f.1/hook', 'loopback'],
    ['ftp://8.8.8.8/hook', 'http or https'],
    ['http://user:pw@8.8.8.8/hook', 'user name'],
    ['not a url', 'absolute URL'],
  ])('refuses %s at registration', async (url, reason) => {
    await expect(targets().checkOrThrow(url)).rejects.toThrow(reason);
  });

  it('accepts a public address, and a private one listed in DAM_WEBHOOK_ALLOWED_HOSTS', async () => {
    await expect(targets().checkOrThrow('https://8.8.8.8/hook')).resolves.toBeInstanceOf(URL);
    await expect(targets('127.0.0.1,[::1]').checkOrThrow('http://127.0.0.1:9/hook')).resolves.toBeInstanceOf(
      URL,
    );
    await expect(targets('127.0.0.1,[::1]').checkOrThrow('http://[::1]:9/hook')).resolves.toBeInstanceOf(URL);
    await expect(targets('127.0.0.1').checkOrThrow('http://127.0.0.2/hook')).rejects.toThrow('loopback');
  });

  it('checks the resolved addresses of a name (localhost resolves to loopback)', async () => {
    await expect(targets().checkOrThrow('http://localhost:9/hook')).rejects.toThrow(
      /resolves to|cannot be resolved/,
    );
    await expect(targets('localhost').checkOrThrow('http://localhost:9/hook')).resolves.toBeInstanceOf(URL);
  });

  it('refuses at connection time a name that resolves to a blocked address', async () => {
    const lookup = targets().lookupFor(new URL('http://localhost:9/hook'));
    const error = await new Promise<Error | null>((resolve) =>
      lookup('localhost', {}, (failure) => resolve(failure)),
    );
    expect(error?.message).toMatch(/localhost resolves to .*, an address webhooks may not target: loopback/);
    expect((error as NodeJS.ErrnoException | null)?.code).toBe('EWEBHOOKTARGET');
  });
});
