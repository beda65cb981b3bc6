import { AsyncLocalStorage } from 'node:async_hooks';

/** Per-request facts that deep code (URL building, logging) needs without threading them through calls. */
export interface RequestContextData {
  requestId: string;
  /** Origin (scheme://host[:port]) the client used, a host TrustedOrigin allowed (else the configured origin). */
  origin: string;
  /** Languages the client accepts, best first (raw tags from Accept-Language). */
  acceptLanguages: string[];
  /** Language named by Content-Language, when the client sent one. */
  contentLanguage: string | undefined;
  /** The user the request acts as, once authenticated (for the request log). */
  actorId?: number;
  /** The OAuth client (`client_id`) of its token, or of a token request (for the request log). */
  clientId?: string;
}

const storage = new AsyncLocalStorage<RequestContextData>();
/** Each request's context, for code that runs outside it (the request log line, written on `finish`). */
const CONTEXT = Symbol('requestContext');
type WithContext = { [CONTEXT]?: RequestContextData };

export const RequestContext = {
  run<T>(data: RequestContextData, fn: () => T): T {
    return storage.run(data, fn);
  },
  current(): RequestContextData | undefined {
    return storage.getStore();
  },
  /** Keeps `data` as the context of `request` (an express request), for `of`. */
  attach(request: object, data: RequestContextData): void {
    (request as WithContext)[CONTEXT] = data;
  },
  of(request: object): RequestContextData | undefined {
    return (request as WithContext)[CONTEXT];
  },
  /** Records who the current request acts as, and through which client (the auth guard, the token endpoint). */
  identify(identity: { actorId?: number; clientId?: string }): void {
    const data = storage.getStore();
    if (data === undefined) return;
    if (identity.actorId !== undefined) data.actorId = identity.actorId;
    if (identity.clientId !== undefined) data.clientId = identity.clientId;
  },
};
