const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EPIPE',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
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
  if (typeof message === 'string' && /Pool is closed|connection is in closed state/i.test(message)) return true;
  return isUnavailableError(driverError, depth + 1) || isUnavailableError(cause, depth + 1);
}
