import { QueryFailedError } from 'typeorm';
import { isUnavailableError } from './unavailable';

/** An error shaped as mysql2 raises it: a message, and usually a code. */
function driverError(message: string, code?: string): Error {
  return Object.assign(new Error(message), code === undefined ? {} : { code, fatal: true });
}

describe('isUnavailableError', () => {
  it.each([
    ['connect ECONNREFUSED 127.0.0.1:3306', 'ECONNREFUSED'],
    ['read ECONNRESET', 'ECONNRESET'],
    ['connect ETIMEDOUT', 'ETIMEDOUT'],
    ['write EPIPE', 'EPIPE'],
    ['getaddrinfo EAI_AGAIN db.internal', 'EAI_AGAIN'],
    ['Connection lost: The server closed the connection.', 'PROTOCOL_CONNECTION_LOST'],
    ['Query inactivity timeout', 'PROTOCOL_SEQUENCE_TIMEOUT'],
    ['Too many connections', 'ER_CON_COUNT_ERROR'],
    ['Connection was killed', 'ER_CONNECTION_KILLED'],
    ['Server shutdown in progress', 'ER_SERVER_SHUTDOWN'],
  ])('is true for mysql2 "%s" (%s), raw and wrapped by TypeORM', (message, code) => {
    const error = driverError(message, code);
    expect(isUnavailableError(error)).toBe(true);
    expect(isUnavailableError(new QueryFailedError('SELECT 1', [], error))).toBe(true);
  });

  it.each([
    'Pool is closed.',
    "Can't add new command when connection is in closed state",
    "Can't write in closed state",
  ])('is true for mysql2 "%s", which has no code', (message) => {
    expect(isUnavailableError(new QueryFailedError('SELECT 1', [], driverError(message)))).toBe(true);
  });

  it('follows a cause chain a few levels deep', () => {
    const inner = driverError('connect ECONNREFUSED 127.0.0.1:9000', 'ECONNREFUSED');
    expect(
      isUnavailableError(new Error('upload failed', { cause: new Error('put', { cause: inner }) })),
    ).toBe(true);
  });

  it.each([
    ['a duplicate key', driverError("Duplicate entry 'a' for key 'name'", 'ER_DUP_ENTRY')],
    ['a syntax error', driverError('You have an error in your SQL syntax', 'ER_PARSE_ERROR')],
    ['a plain error', new Error('something else')],
    ['a string', 'ECONNREFUSED'],
    ['null', null],
  ])('is false for %s', (_what, error) => {
    expect(isUnavailableError(error)).toBe(false);
    if (error instanceof Error)
      expect(isUnavailableError(new QueryFailedError('SELECT 1', [], error))).toBe(false);
  });
});
