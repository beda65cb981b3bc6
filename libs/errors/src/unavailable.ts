import { DependencyUnavailable } from './domain-errors';

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  'ER_TOO_MANY_USER_CONNECTIONS',
  'ER_SERVER_SHUTDOWN',
  'ER_CONNECTION_KILLED',
  'SQLITE_BUSY',
  'SQLITE_IOERR',
  'ServiceUnavailable',
  'SlowDown',
]);

/** True for errors meaning a dependency (database, object store) cannot be reached right now: a 503. */
export function isUnavailableError(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 3) return false;
  const { code, driverError, cause, name, message } = error as {
    code?: unknown;
    driverError?: unknown;
    cause?: unknown;
    name?: unknown;
    message?: unknown;
  };
  if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
  if (name === 'ConnectionIsNotSetError' || name === 'CannotConnectAlreadyConnectedError') return true;
  // mysql2 raises these without a code once a connection or the pool is gone.
  if (typeof message === 'string' && /Pool is closed|in closed state/i.test(message)) return true;
  return isUnavailableError(driverError, depth + 1) || isUnavailableError(cause, depth + 1);
}

/**
 * A dependency (the database, the object store) did not answer within its timeout: a 503 whose message
 * says which and how long was waited. Carries code ETIMEDOUT for code that only looks at codes.
 */
export class DependencyTimeout extends DependencyUnavailable {
  readonly code = 'ETIMEDOUT';

  constructor(dependency: string, timeoutMs: number) {
    super(
      `${dependency} did not answer within ${timeoutMs} ms; the service is temporarily unavailable, try again shortly`,
    );
  }
}
