/**
 * The HTTP side shared by the service's command-line clients (`dam upload`, `dam import`, `dam export`):
 * fetch with a bearer token and retries, RFC 9530 digest fields, Content-Disposition, and the token.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import { FileRange, FileShrank, writeRange } from './file-range';

/** A request the server refused (4xx) or kept failing (5xx, network): the message says which and why. */
export class UploadFailed extends Error {}

export const RETRY_DELAYS_MS = [500, 1500, 4000];

/** RFC 9530 `sha-256=:<base64>:`. */
export function digestField(sha256: Buffer): string {
  return `sha-256=:${sha256.toString('base64')}:`;
}

/** `attachment; filename="..."` with an RFC 8187 `filename*` for names that are not plain ASCII. */
export function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return ascii === name
    ? `attachment; filename="${name}"`
    : `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** fetch with the bearer token, retries of network failures and 5xx, and readable errors. */
export class DamHttp {
  constructor(
    private readonly token: string,
    private readonly attempts: number,
  ) {}

  async json<T>(method: string, url: string, options: { allow404?: boolean } = {}): Promise<T | undefined> {
    const answer = await this.send(method, url, {
      headers: { Accept: 'application/json' },
      allow404: options.allow404,
    });
    if (answer.status === 404) return undefined;
    return (await answer.json()) as T;
  }

  async send(
    method: string,
    url: string,
    options: { body?: string | FileRange; headers?: Record<string, string>; allow404?: boolean } = {},
  ): Promise<Response> {
    for (let attempt = 1; ; attempt++) {
      let answer: Response;
      try {
        const headers = { Authorization: `Bearer ${this.token}`, ...options.headers };
        const body = options.body;
        answer =
          typeof body === 'string' || body === undefined
            ? await fetch(url, { method, headers, body })
            : await sendFileRange(method, url, headers, body);
      } catch (error) {
        if (error instanceof FileShrank) throw new UploadFailed(`${method} ${url}: ${error.message}`);
        if (attempt < this.attempts) {
          await sleep(RETRY_DELAYS_MS[attempt - 1] ?? 4000);
          continue;
        }
        const cause = (error as { cause?: { message?: string } }).cause?.message;
        throw new UploadFailed(`${method} ${url} failed: ${cause ?? (error as Error).message}`);
      }
      if (answer.ok || (answer.status === 404 && options.allow404 === true)) return answer;
      const text = (await answer.text()).trim().slice(0, 500);
      if (answer.status >= 500 && attempt < this.attempts) {
        await sleep(RETRY_DELAYS_MS[attempt - 1] ?? 4000);
        continue;
      }
      throw new UploadFailed(`${method} ${url} answered ${answer.status}${text === '' ? '' : `: ${text}`}`);
    }
  }
}

/**
 * A request whose body is a range of a file, sent with node:http rather than fetch: fetch copies a
 * buffer body (the Fetch standard's "extract a body"), so each 8 MiB chunk, `parallel` at a time, left a
 * copy outside V8's heap until a collection, and the client's RSS reached ~300 MB on 256 MiB files. Here
 * the body is read from the file a small piece at a time as the socket takes it (writeRange), so no
 * chunk is ever held whole (bench/results/import.md). The answer is read whole (the service's answers to
 * these are small) into a fetch Response.
 */
function sendFileRange(
  method: string,
  url: string,
  headers: Record<string, string>,
  body: FileRange,
): Promise<Response> {
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    let answered = false;
    const request = client.request(
      target,
      { method, headers: { ...headers, 'Content-Length': String(body.length) } },
      (response) => {
        answered = true;
        const parts: Buffer[] = [];
        response.on('data', (part: Buffer) => parts.push(part));
        response.on('error', reject);
        response.on('end', () => resolve(asResponse(method, response, parts)));
      },
    );
    request.on('error', reject);
    writeRange(request, body).then(
      () => request.end(),
      // An answer before the whole body (a refusal) stands; otherwise the request failed.
      (error: Error) => (answered ? undefined : request.destroy(error)),
    );
  });
}

function asResponse(method: string, response: http.IncomingMessage, parts: Buffer[]): Response {
  const status = response.statusCode ?? 502;
  const headers = new Headers();
  for (let index = 0; index + 1 < response.rawHeaders.length; index += 2) {
    headers.append(response.rawHeaders[index], response.rawHeaders[index + 1]);
  }
  const noBody = status === 204 || status === 205 || status === 304 || method === 'HEAD';
  return new Response(noBody ? null : Buffer.concat(parts), {
    status,
    statusText: response.statusMessage,
    headers,
  });
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** An access token: DAM_TOKEN, or the client credentials grant with a client id and secret. */
export async function accessToken(
  baseUrl: string,
  credentials: { token?: string; clientId?: string; clientSecret?: string },
): Promise<string> {
  if (credentials.token !== undefined) return credentials.token;
  if (credentials.clientId === undefined || credentials.clientSecret === undefined) {
    throw new UploadFailed('set DAM_TOKEN, or DAM_CLIENT_ID and DAM_CLIENT_SECRET');
  }
  let answer: Response;
  try {
    answer = await fetch(`${baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: credentials.clientId,
        client_secret: credentials.clientSecret,
      }).toString(),
    });
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message;
    throw new UploadFailed(`${baseUrl}/oauth/token failed: ${cause ?? (error as Error).message}`);
  }
  if (!answer.ok) {
    throw new UploadFailed(
      `${baseUrl}/oauth/token answered ${answer.status}: ${(await answer.text()).trim()}`,
    );
  }
  return ((await answer.json()) as { access_token: string }).access_token;
}
