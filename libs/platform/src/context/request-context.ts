import { AsyncLocalStorage } from 'node:async_hooks';

/** Per-request facts that deep code (URL building, logging) needs without threading them through calls. */
export interface RequestContextData {
  requestId: string;
  /** Origin (scheme://host[:port]) the client used, when DAM_PUBLIC_URL is not set. */
  origin: string;
  /** Languages the client accepts, best first (raw tags from Accept-Language). */
  acceptLanguages: string[];
  /** Language named by Content-Language, when the client sent one. */
  contentLanguage: string | undefined;
}

const storage = new AsyncLocalStorage<RequestContextData>();

export const RequestContext = {
  run<T>(data: RequestContextData, fn: () => T): T {
    return storage.run(data, fn);
  },
  current(): RequestContextData | undefined {
    return storage.getStore();
  },
};
