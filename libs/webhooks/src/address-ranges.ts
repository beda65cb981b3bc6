import ipaddr from 'ipaddr.js';
import { isIP } from 'node:net';

/**
 * Which addresses a webhook may reach (the SSRF guard's rule, docs/security.md "Webhook targets"): public
 * unicast only, as ipaddr.js names the ranges of the IANA special-purpose registries.
 *
 * - IPv4: only what ipaddr.js calls `unicast` (not loopback, private, link-local, carrier-grade NAT,
 *   multicast, broadcast, reserved, documentation, benchmarking, "this network", AS112, AMT).
 * - IPv4-mapped IPv6 (`::ffff:a.b.c.d`) is judged as the IPv4 address a socket connects to.
 * - Every other IPv6 form that carries or reaches IPv4 goes through a translator or relay whose IPv4 side
 *   cannot be judged from here, so its whole range is refused: NAT64 (`64:ff9b::/96`, `64:ff9b:1::/48`),
 *   SIIT (`::ffff:0:a.b.c.d`), 6to4 (`2002::/16`), Teredo (`2001::/32`).
 * - IPv6 must be `unicast` for ipaddr.js and inside global unicast `2000::/3`: that also refuses what
 *   ipaddr.js leaves unnamed, such as IPv4-compatible `::a.b.c.d` and other unassigned space.
 */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];

/** ipaddr.js range names as the refusal messages say them. */
const LABELS: Record<string, string> = {
  unspecified: 'unspecified',
  loopback: 'loopback',
  private: 'private',
  linkLocal: 'link-local',
  carrierGradeNat: 'carrier-grade NAT',
  uniqueLocal: 'unique local (private)',
  deprecatedSiteLocal: 'site-local (private)',
  rfc6052: 'NAT64 (carries an IPv4 address)',
  rfc6145: 'IPv4-translated (carries an IPv4 address)',
  '6to4': '6to4 (carries an IPv4 address)',
  teredo: 'Teredo (carries an IPv4 address)',
  multicast: 'multicast',
  broadcast: 'broadcast',
  reserved: 'reserved',
};

/**
 * Why a webhook may not reach `address` (an IP literal): the name of its range, as a phrase for messages
 * ("loopback", "NAT64 (carries an IPv4 address)"); undefined when it is public unicast.
 */
export function refusedRangeOf(address: string): string | undefined {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(canonical(address));
  } catch {
    return 'not an IP address';
  }
  if (parsed.kind() === 'ipv4') return labelOf((parsed as ipaddr.IPv4).range());
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return refusedRangeOf(v6.toIPv4Address().toString());
  const range = v6.range();
  if (range !== 'unicast') return labelOf(range);
  return v6.match(GLOBAL_UNICAST_V6) ? undefined : 'unassigned or IPv4-compatible (outside 2000::/3)';
}

/**
 * IPv6 in the hexadecimal form (WHATWG URL's serialisation). ipaddr.js reads any dotted IPv4 tail as
 * IPv4-mapped (`::8.8.8.8` as `::ffff:8.8.8.8`), and resolvers print IPv4-compatible addresses that way.
 */
function canonical(address: string): string {
  if (isIP(address) !== 6) return address;
  return new URL(`http://[${address}]/`).hostname.slice(1, -1);
}

function labelOf(range: string): string | undefined {
  return range === 'unicast' ? undefined : (LABELS[range] ?? range);
}
