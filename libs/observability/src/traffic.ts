import { randomUUID } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/;

/** What one request took: when it started, and the body bytes it received and sent. */
export interface Traffic {
  startedAt: bigint;
  /** Request body bytes received from the client ("uploaded"). */
  received: number;
  /** Response body bytes handed to the connection ("downloaded"). */
  sent: number;
}

// Kept on the request itself, under symbols: cheaper than WeakMaps for objects that live one request.
const ID = Symbol('requestId');
// Global symbols: the prototypes' counting (below) serves every copy of this module.
const TRAFFIC = Symbol.for('@dam/observability traffic');
type Tracked = IncomingMessage & { [ID]?: string; [TRAFFIC]?: Traffic };

/**
 * The request's id: the client's `X-Request-Id` when it is a plain token (letters, digits, `._-`, at most
 * 100), else a new UUID. Sent back as `X-Request-Id`. The same for every caller (the request log's
 * middleware and the request context may run in either order).
 */
export function requestIdOf(request: IncomingMessage, response: ServerResponse): string {
  let id = (request as Tracked)[ID];
  if (id === undefined) {
    const offered = request.headers['x-request-id'];
    id = typeof offered === 'string' && REQUEST_ID.test(offered) ? offered : randomUUID();
    (request as Tracked)[ID] = id;
    if (!response.headersSent) response.setHeader('X-Request-Id', id);
  }
  return id;
}

/**
 * Starts counting the request's body bytes both ways, without consuming or buffering anything: incoming
 * bytes as the HTTP parser pushes them into the request stream (plus what it had pushed already),
 * outgoing ones as they are written to the response. Idempotent. The counting is done by `push`, `write`
 * and `end` of the node:http prototypes, patched once (installCounting), for requests that carry a
 * Traffic: no closure or own method per request (the instances keep their shape).
 */
export function measureTraffic(request: IncomingMessage, response: ServerResponse): Traffic {
  const existing = (request as Tracked)[TRAFFIC];
  if (existing !== undefined) return existing;
  const measured: Traffic = { startedAt: process.hrtime.bigint(), received: request.readableLength, sent: 0 };
  (request as Tracked)[TRAFFIC] = measured;
  (response as Counted)[TRAFFIC] = measured;
  return measured;
}

type Counted = ServerResponse & { [TRAFFIC]?: Traffic };

/** Patches IncomingMessage's `push` and ServerResponse's `write` and `end` (once per process). */
function installCounting(): void {
  const requests = IncomingMessage.prototype as IncomingMessage & { [COUNTING]?: true };
  if (requests[COUNTING] === true) return;
  requests[COUNTING] = true;
  const push = requests.push;
  requests.push = function (this: Tracked, chunk: unknown, encoding?: BufferEncoding): boolean {
    const measured = this[TRAFFIC];
    if (measured !== undefined) measured.received += sizeOf(chunk, encoding);
    return push.call(this, chunk, encoding);
  };
  const responses = ServerResponse.prototype;
  const write = responses.write as (...args: unknown[]) => boolean;
  responses.write = function (this: Counted, ...args: unknown[]): boolean {
    const measured = this[TRAFFIC];
    if (measured !== undefined) measured.sent += sizeOf(args[0], args[1]);
    return write.apply(this, args);
  } as ServerResponse['write'];
  const end = responses.end as (...args: unknown[]) => ServerResponse;
  responses.end = function (this: Counted, ...args: unknown[]): ServerResponse {
    const measured = this[TRAFFIC];
    if (measured !== undefined) measured.sent += sizeOf(args[0], args[1]);
    return end.apply(this, args);
  } as ServerResponse['end'];
}

// A global symbol: two copies of this module (tests load the app more than once) patch only once.
const COUNTING = Symbol.for('@dam/observability traffic counting');
installCounting();

export function trafficOf(request: IncomingMessage): Traffic | undefined {
  return (request as Tracked)[TRAFFIC];
}

/** Milliseconds since the request started (0.1 ms precision). */
export function elapsedMs(measured: Traffic): number {
  return Math.round(Number(process.hrtime.bigint() - measured.startedAt) / 1e5) / 10;
}

function sizeOf(chunk: unknown, encoding: unknown): number {
  if (typeof chunk === 'string') {
    return Buffer.byteLength(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  }
  return chunk instanceof Uint8Array ? chunk.byteLength : 0;
}

/**
 * The route pattern express matched (`/rest/assets/:id`), never the raw URL; undefined when no handler's
 * route matched. Nest mounts middleware as routes for every method (`app.all('{/*splat}')`), which leave
 * their pattern behind on requests no handler takes; a handler's route has exactly one method.
 */
export function routePatternOf(request: IncomingMessage): string | undefined {
  const route = (request as { route?: { path?: unknown; methods?: Record<string, boolean> } }).route;
  if (typeof route?.path !== 'string' || Object.keys(route.methods ?? {}).length !== 1) return undefined;
  return route.path;
}
