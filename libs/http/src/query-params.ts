import { InvalidInput } from '@dam/errors';

const MAX_PARAMETERS = 200;

/**
 * Query parameters as sent, in order. Arrays are accepted repeated (`a=1&a=2`), comma-joined (`a=1,2`)
 * or with index suffixes (`a[0]=1&a[1]=2`, also `a[]=1`), as DESIGN §6 asks; read straight from the
 * query string so that the result does not depend on the HTTP framework's query parser.
 */
export class QueryParams {
  private constructor(private readonly pairs: ReadonlyArray<readonly [string, string]>) {
    if (pairs.length > MAX_PARAMETERS)
      throw new InvalidInput(`at most ${MAX_PARAMETERS} query parameters are accepted`);
  }

  /** `search` is the part after `?` (with or without it). */
  static fromQueryString(search: string): QueryParams {
    return new QueryParams([...new URLSearchParams(search).entries()]);
  }

  /** The query of a request URL such as `/rest/asset-search?keywords=x` (absolute or not). */
  static fromUrl(url: string): QueryParams {
    const start = url.indexOf('?');
    return QueryParams.fromQueryString(start < 0 ? '' : url.slice(start + 1));
  }

  /**
   * A JSON object of parameters: values are strings, numbers, booleans or arrays of those (an array is a
   * repeated parameter).
   */
  static fromObject(object: Record<string, unknown>, what: string): QueryParams {
    const pairs: Array<[string, string]> = [];
    for (const [name, value] of Object.entries(object)) {
      for (const item of Array.isArray(value) ? value : [value]) {
        if (typeof item !== 'string' && typeof item !== 'number' && typeof item !== 'boolean') {
          throw new InvalidInput(`${what} ${name} must be a string, number, boolean or an array of those`);
        }
        pairs.push([name, String(item)]);
      }
    }
    return new QueryParams(pairs);
  }

  entries(): ReadonlyArray<readonly [string, string]> {
    return this.pairs;
  }

  names(): string[] {
    return [...new Set(this.pairs.map(([name]) => baseName(name)))];
  }

  /** The last non-empty value of a single-valued parameter (a later value wins, as in asset PUTs). */
  single(name: string): string | undefined {
    const values = this.raw(name).filter((value) => value.trim() !== '');
    return values.length === 0 ? undefined : values[values.length - 1];
  }

  /** Every value of a list parameter, comma-joined values split, blanks dropped. */
  list(name: string): string[] {
    return this.raw(name)
      .flatMap((value) => value.split(','))
      .map((value) => value.trim())
      .filter((value) => value !== '');
  }

  /** A canonical query string of the pairs whose base name passes `keep`. */
  toQueryString(keep: (name: string) => boolean = () => true): string {
    const kept = this.pairs.filter(([name]) => keep(baseName(name)));
    return new URLSearchParams(kept.map(([name, value]): [string, string] => [name, value])).toString();
  }

  private raw(name: string): string[] {
    return this.pairs.filter(([key]) => baseName(key) === name).map(([, value]) => value);
  }
}

/** `a[3]` and `a[]` are `a`. */
function baseName(name: string): string {
  return name.replace(/\[\d*\]$/, '');
}
