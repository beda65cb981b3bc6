import { UploadUsage as TransferUsage } from '../upload/client-command';
import { accessToken, DamHttp, RETRY_DELAYS_MS } from '../upload/dam-http';

/** The command line or the settings are wrong: exit code 2. */
export { UploadUsage as TransferUsage } from '../upload/client-command';

/** What `dam import` and `dam export` talk to: the service's origin and an authorised HTTP client. */
export interface Connection {
  baseUrl: string;
  /** The bearer token (for the chunk upload of big files, which makes its own requests). */
  token: string;
  http: DamHttp;
  /** `{origin}/rest/{path}` */
  rest(path: string): string;
  /** A JSON request with a JSON body; answers the parsed body (undefined when empty). */
  sendJson<T>(
    method: string,
    url: string,
    body: unknown,
  ): Promise<{ body: T | undefined; location: string | null }>;
}

export interface TransferIo {
  env: NodeJS.ProcessEnv;
  stdout(line: string): void;
  stderr(line: string): void;
  /** Where the progress bar is drawn when it is a TTY; otherwise plain lines go to `stderr`. */
  progressStream?: NodeJS.WriteStream;
}

function env(environment: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = environment[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

/** DAM_URL, checked before anything is read or sent. */
export function serviceUrl(environment: NodeJS.ProcessEnv): string {
  const rawUrl = env(environment, 'DAM_URL');
  if (rawUrl === undefined || !/^https?:\/\/[^/]/.test(rawUrl)) {
    throw new TransferUsage('DAM_URL must be the service URL, e.g. https://dam.example.com');
  }
  return rawUrl.replace(/\/+$/, '');
}

/** DAM_TOKEN, or a token for DAM_CLIENT_ID and DAM_CLIENT_SECRET, exactly as `dam upload`. */
export async function connect(baseUrl: string, environment: NodeJS.ProcessEnv): Promise<Connection> {
  const token = await accessToken(baseUrl, {
    token: env(environment, 'DAM_TOKEN'),
    clientId: env(environment, 'DAM_CLIENT_ID'),
    clientSecret: env(environment, 'DAM_CLIENT_SECRET'),
  });
  const http = new DamHttp(token, RETRY_DELAYS_MS.length + 1);
  return {
    baseUrl,
    token,
    http,
    rest: (path) => `${baseUrl}/rest/${path}`,
    async sendJson<T>(method: string, url: string, body: unknown) {
      const answer = await http.send(method, url, {
        body: JSON.stringify(body),
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      });
      const text = await answer.text();
      return {
        body: text === '' ? undefined : (JSON.parse(text) as T),
        location: answer.headers.get('location'),
      };
    },
  };
}

/** Every item of a paged list: `pageSize=1000` and the `Link rel="next"` of each page. */
export async function allPages<T>(http: DamHttp, firstUrl: string): Promise<T[]> {
  const items: T[] = [];
  for (let url: string | undefined = firstUrl; url !== undefined;) {
    const answer = await http.send('GET', url, { headers: { Accept: 'application/json' } });
    items.push(...((await answer.json()) as T[]));
    url = nextLink(answer.headers.get('link'), url);
  }
  return items;
}

function nextLink(header: string | null, current: string): string | undefined {
  for (const part of (header ?? '').split(',')) {
    const match = /<([^>]*)>\s*;\s*rel="?next"?/.exec(part.trim());
    if (match !== null) return new URL(match[1], current).toString();
  }
  return undefined;
}

/** `work` on each item, at most `limit` at a time; every item is worked on, whatever the others do. */
export async function eachLimited<T>(
  items: T[],
  limit: number,
  work: (item: T, index: number) => Promise<void>,
) {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      await work(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
