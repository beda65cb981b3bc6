/** The largest discovery document or key set read (real ones are a few KiB). */
const MAX_DOCUMENT_BYTES = 512 * 1024;
/** How long a document is kept at least, and at most, whatever its `Cache-Control` says. */
export const MIN_KEEP_MS = 60_000;
export const MAX_KEEP_MS = 24 * 3600_000;
/** How long a document without `Cache-Control: max-age` is kept. */
const DEFAULT_KEEP_MS = 10 * 60_000;

/** A JSON document of the identity provider, and how long it may be kept. */
export interface ProviderDocument {
  body: Record<string, unknown>;
  keepMs: number;
}

/** The provider could not be asked, or answered something unusable; the message says which (no secrets). */
export class ProviderUnavailable extends Error {}

/**
 * GETs a JSON object within `timeoutMs` (connecting, waiting and reading all count) and `MAX_DOCUMENT_BYTES`.
 */
export async function fetchProviderDocument(url: string, timeoutMs: number): Promise<ProviderDocument> {
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    throw new ProviderUnavailable(`${url} could not be fetched (${reasonOf(error)})`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new ProviderUnavailable(`${url} answered ${response.status}`);
  }
  let body: unknown;
  try {
    body = JSON.parse(await readBounded(response, url));
  } catch (error) {
    if (error instanceof ProviderUnavailable) throw error;
    throw new ProviderUnavailable(`${url} did not answer a JSON document (${reasonOf(error)})`);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ProviderUnavailable(`${url} did not answer a JSON object`);
  }
  return { body: body as Record<string, unknown>, keepMs: keepMsOf(response.headers.get('cache-control')) };
}

/** `max-age` within [MIN_KEEP_MS, MAX_KEEP_MS]; `no-store`/`no-cache` keep it the least. */
export function keepMsOf(cacheControl: string | null): number {
  if (cacheControl === null) return DEFAULT_KEEP_MS;
  if (/(^|,)\s*(no-store|no-cache)\s*(,|$)/i.test(cacheControl)) return MIN_KEEP_MS;
  const maxAge = /(^|,)\s*max-age\s*=\s*"?(\d+)"?/i.exec(cacheControl);
  if (maxAge === null) return DEFAULT_KEEP_MS;
  return Math.min(MAX_KEEP_MS, Math.max(MIN_KEEP_MS, Number(maxAge[2]) * 1000));
}

async function readBounded(response: Response, url: string): Promise<string> {
  const reader = response.body?.getReader();
  if (reader === undefined) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_DOCUMENT_BYTES) {
      await reader.cancel();
      throw new ProviderUnavailable(`${url} answered more than ${MAX_DOCUMENT_BYTES} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function reasonOf(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return 'timed out';
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  if (typeof cause?.code === 'string') return cause.code;
  return error instanceof Error ? error.message : String(error);
}
