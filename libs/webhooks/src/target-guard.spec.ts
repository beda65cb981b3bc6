import { AppConfig } from '@dam/core';
import { isBlockedAddress, WebhookTargets } from './target-guard';

describe('webhook target guard', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['10.1.2.3', true],
    ['172.16.0.1', true],
    ['172.31.255.255', true],
    ['172.32.0.1', false],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['224.0.0.1', true],
    ['8.8.8.8', false],
    ['93.184.216.34', false],
    ['::1', true],
    ['::', true],
    ['fe80::1', true],
    ['fd00::1', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:8.8.8.8', false],
    ['2606:4700::1111', false],
    ['not-an-ip', true],
  ])('%s is blocked: %s', (address, blocked) => {
    expect(isBlockedAddress(address)).toBe(blocked);
  });

  const targets = (allowed = '') =>
    new WebhookTargets(AppConfig.fromEnv({ DAM_WEBHOOK_ALLOWED_HOSTS: allowed }));

  it.each([
    ['http://127.0.0.1:8080/hook', 'loopback'],
    ['http://[::1]/hook', 'loopback'],
    ['http://10.0.0.5/hook', 'private'],
    ['http://169.254.169.254/latest/meta-data', 'link-local'],
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
    expect(error?.message).toMatch(/loopback, link-local or private/);
  });
});
