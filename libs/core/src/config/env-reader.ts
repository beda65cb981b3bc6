import { ConfigError } from './config-error';

const TRUE_WORDS = ['true', '1', 'yes', 'on'];
const FALSE_WORDS = ['false', '0', 'no', 'off'];

/** How one environment variable is read and validated: text, numbers, booleans, choices, URLs. */
export class EnvReader {
  constructor(protected readonly env: NodeJS.ProcessEnv) {}

  optionalString(name: string): string | undefined {
    const value = this.env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  }

  string(name: string, fallback: string): string {
    return this.optionalString(name) ?? fallback;
  }

  number(name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
    const raw = this.optionalString(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < min || value > max) {
      throw new ConfigError(name, `must be a number between ${min} and ${max} (got "${raw}")`);
    }
    return value;
  }

  integer(name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
    const value = this.number(name, fallback, min, max);
    if (!Number.isInteger(value)) throw new ConfigError(name, `must be a whole number (got "${value}")`);
    return value;
  }

  boolean(name: string, fallback: boolean): boolean {
    const raw = this.optionalString(name)?.toLowerCase();
    if (raw === undefined) return fallback;
    if (TRUE_WORDS.includes(raw)) return true;
    if (FALSE_WORDS.includes(raw)) return false;
    throw new ConfigError(name, `must be true or false (got "${raw}")`);
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const raw = this.optionalString(name);
    if (raw === undefined) return fallback;
    const match = allowed.find((candidate) => candidate === raw.toLowerCase());
    if (match === undefined)
      throw new ConfigError(name, `must be one of ${allowed.join(', ')} (got "${raw}")`);
    return match;
  }

  optionalUrl(name: string): string | undefined {
    const raw = this.optionalString(name);
    if (raw === undefined) return undefined;
    const unusable = `must be an absolute http(s) URL (got "${raw}")`;
    const url = parsedUrl(name, raw, unusable);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(name, unusable);
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  }

  optionalDatabaseUrl(name: string): string | undefined {
    const raw = this.optionalString(name);
    if (raw === undefined) return undefined;
    const url = parsedUrl(name, raw, 'must look like mysql://user:password@host:port/database');
    if (url.protocol !== 'mysql:' && url.protocol !== 'mariadb:') {
      throw new ConfigError(name, `must use the mysql:// scheme (got "${url.protocol}")`);
    }
    if (url.pathname.replace(/^\//, '') === '') throw new ConfigError(name, 'must name a database');
    return raw;
  }
}

/** `raw` as a URL; `unparsable` names what the variable `name` must be when it is not one. */
function parsedUrl(name: string, raw: string, unparsable: string): URL {
  try {
    return new URL(raw);
  } catch {
    throw new ConfigError(name, unparsable);
  }
}
