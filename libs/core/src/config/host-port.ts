/** `name[:port]` or `[ipv6][:port]`: the grammar of a Host header, and of DAM_ALLOWED_HOSTS entries. */
const HOST_PORT = /^([a-z0-9-]+(\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(:(\d{1,5}))?$/i;

/** A host as a URL spells it (lower case, IPv4 dotted, IPv6 bracketed and compressed), and its port if given. */
export interface HostPort {
  hostname: string;
  port: number | undefined;
}

/** Reads `text` as a host with an optional port; undefined when it is anything else (a path, a bad port). */
export function parseHostPort(text: string): HostPort | undefined {
  const match = HOST_PORT.exec(text);
  if (match === null) return undefined;
  let url: URL;
  try {
    url = new URL(`http://${text}`);
  } catch {
    return undefined;
  }
  return { hostname: url.hostname, port: match[4] === undefined ? undefined : Number(match[4]) };
}

/** `host[:port]` as written in an origin. */
export function hostPortText(host: HostPort): string {
  return host.port === undefined ? host.hostname : `${host.hostname}:${host.port}`;
}
