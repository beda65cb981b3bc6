import { validateCronExpression } from 'cron';
import { isIP } from 'node:net';
import { ConfigError } from './config-error';
import { EnvReader } from './env-reader';
import { HostPort, parseHostPort } from './host-port';

/** The variables that hold lists (origins, networks, hosts, languages) and the DAM_JOB_<NAME>_CRON family. */
export class EnvListReader extends EnvReader {
  /** Every DAM_JOB_<NAME>_CRON: `off` or a cron expression (5 fields, or 6 with seconds). */
  jobCrons(): Record<string, string> {
    const crons: Record<string, string> = {};
    for (const [name, raw] of Object.entries(this.env)) {
      const match = /^DAM_JOB_([A-Z0-9_]+)_CRON$/.exec(name);
      if (match === null || raw === undefined || raw.trim() === '') continue;
      const value = raw.trim();
      if (value.toLowerCase() === 'off') {
        crons[match[1]] = 'off';
        continue;
      }
      const fields = value.split(/\s+/).length;
      const validity = validateCronExpression(value);
      if (fields < 5 || fields > 6 || !validity.valid) {
        throw new ConfigError(name, `must be a cron expression (5 or 6 fields) or "off", not "${value}"`);
      }
      crons[match[1]] = value;
    }
    return crons;
  }

  /** Comma-separated `http(s)://host[:port]` origins, or `*` alone. */
  originList(name: string): string[] {
    const entries = (this.optionalString(name) ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '');
    if (entries.includes('*')) {
      if (entries.length > 1) throw new ConfigError(name, 'is either * or a list of origins, not both');
      return ['*'];
    }
    return entries.map((entry) => {
      let url: URL | undefined;
      try {
        url = new URL(entry);
      } catch {
        url = undefined;
      }
      const origin = url?.origin;
      const isOrigin = url !== undefined && /^https?:$/.test(url.protocol);
      if (!isOrigin || entry.replace(/\/$/, '') !== origin) {
        throw new ConfigError(name, `must list origins such as https://app.example.com (got "${entry}")`);
      }
      return origin;
    });
  }

  cidrList(name: string): string[] {
    const raw = this.optionalString(name);
    if (raw === undefined) return [];
    const entries = raw
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '');
    for (const entry of entries) {
      const [address, bits, extra] = entry.split('/');
      const family = isIP(address);
      const maxBits = family === 6 ? 128 : 32;
      const prefix = bits === undefined ? maxBits : Number(bits);
      if (
        family === 0 ||
        extra !== undefined ||
        !Number.isInteger(prefix) ||
        prefix < 0 ||
        prefix > maxBits
      ) {
        throw new ConfigError(name, `has an invalid network "${entry}" (expected CIDRs like 10.0.0.0/8)`);
      }
    }
    return entries;
  }

  /** Comma-separated host names or IP addresses (IPv6 with or without brackets), lower-cased. */
  hostList(name: string): string[] {
    const raw = this.optionalString(name);
    if (raw === undefined) return [];
    const hosts = raw
      .split(',')
      .map((entry) =>
        entry
          .trim()
          .toLowerCase()
          .replace(/^\[(.*)\]$/, '$1'),
      )
      .filter((entry) => entry !== '');
    for (const host of hosts) {
      if (
        isIP(host) === 0 &&
        !/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/.test(host)
      )
        throw new ConfigError(name, `has an invalid host "${host}" (expected names or IPs, without ports)`);
    }
    return [...new Set(hosts)];
  }

  /** Comma-separated `host` or `host:port` entries (IPv6 in brackets); undefined when unset. */
  hostPortList(name: string): HostPort[] | undefined {
    const raw = this.optionalString(name);
    if (raw === undefined) return undefined;
    const entries = raw
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '');
    if (entries.length === 0) throw new ConfigError(name, 'must list at least one host');
    return entries.map((entry) => {
      const host = parseHostPort(entry);
      if (host === undefined)
        throw new ConfigError(
          name,
          `has an invalid entry "${entry}" (expected host or host:port, IPv6 in brackets)`,
        );
      return host;
    });
  }

  languages(name: string): string[] {
    const raw = this.optionalString(name) ?? 'en';
    const codes = raw
      .split(',')
      .map((code) => code.trim().toLowerCase())
      .filter((code) => code !== '');
    for (const code of codes) {
      if (!/^[a-z]{2,3}(-[a-z0-9]{2,8})?$/.test(code)) {
        throw new ConfigError(name, `has an invalid language code "${code}"`);
      }
    }
    if (codes.length === 0) throw new ConfigError(name, 'must list at least one language');
    return [...new Set(codes)];
  }
}
