import { Logger } from '@nestjs/common';
import { SqlErrorLogger } from './sql-error-logger';

describe('SqlErrorLogger', () => {
  afterEach(() => jest.restoreAllMocks());

  it('logs a failed query and its error without the parameters', () => {
    const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    new SqlErrorLogger().logQueryError(
      new Error('Connection lost: The server closed the connection.'),
      'SELECT * FROM oauth_tokens WHERE token_hash = ?',
      ['9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'],
    );
    expect(error).toHaveBeenCalledTimes(1);
    const line = String(error.mock.calls[0][0]);
    expect(line).toContain('Connection lost');
    expect(line).toContain('SELECT * FROM oauth_tokens WHERE token_hash = ?');
    expect(line).toContain('1 parameters not logged');
    expect(line).not.toContain('9f86d081');
  });

  it('passes warnings on and ignores routine query logs', () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const logger = new SqlErrorLogger();
    logger.logQuery();
    logger.log('log', 'routine');
    logger.log('warn', 'careful');
    expect(warn.mock.calls.map((call) => call[0])).toEqual(['careful']);
  });
});
