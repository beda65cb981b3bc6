import { refusedRangeOf } from './address-ranges';

describe('refusedRangeOf (webhook target ranges)', () => {
  it.each([
    // IPv4
    ['0.0.0.0', 'unspecified'],
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    // IPv6, plain
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['fd00::1', 'unique local (private)'],
    ['fec0::1', 'site-local (private)'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    // IPv6 forms that carry or reach IPv4
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:0:7f00:1', 'IPv4-translated (carries an IPv4 address)'],
    ['::127.0.0.1', 'unassigned or IPv4-compatible (outside 2000::/3)'],
    ['::8.8.8.8', 'unassigned or IPv4-compatible (outside 2000::/3)'],
    ['::a00:1', 'unassigned or IPv4-compatible (outside 2000::/3)'],
    ['64:ff9b::7f00:1', 'NAT64 (carries an IPv4 address)'],
    ['64:ff9b::808:808', 'NAT64 (carries an IPv4 address)'],
    ['64:ff9b:1::7f00:1', 'NAT64 (carries an IPv4 address)'],
    ['2002:7f00:1::', '6to4 (carries an IPv4 address)'],
    ['2002:a00:1::', '6to4 (carries an IPv4 address)'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo (carries an IPv4 address)'],
    ['2001::1', 'Teredo (carries an IPv4 address)'],
    ['100::1', 'discard'],
    ['not-an-ip', 'not an IP address'],
  ])('refuses %s (%s)', (address, range) => {
    expect(refusedRangeOf(address)).toBe(range);
  });

  it.each([
    '8.8.8.8',
    '93.184.216.34',
    '172.32.0.1',
    '::ffff:8.8.8.8',
    '2606:4700::1111',
    '2a00:1450:4001::1',
  ])('lets %s through (public unicast)', (address) => {
    expect(refusedRangeOf(address)).toBeUndefined();
  });
});
