import { Logger as NestLogger } from '@nestjs/common';
import type { Logger } from 'typeorm';

/**
 * TypeORM's logger for the service: failed queries and warnings go to the Nest log, **without their
 * parameters**. Parameters carry secrets (OAuth token hashes, client secret hashes) and personal data,
 * and a lost database connection makes every in-flight query fail at once.
 */
export class SqlErrorLogger implements Logger {
  private readonly logger = new NestLogger('Database');

  logQuery(): void {}

  logQueryError(error: string | Error, query: string, parameters?: unknown): void {
    const message = typeof error === 'string' ? error : error.message;
    const count = Array.isArray(parameters) ? parameters.length : 0;
    this.logger.error(
      `query failed: ${message}; query: ${query.slice(0, 500)} (${count} parameters not logged)`,
    );
  }

  logQuerySlow(time: number, query: string): void {
    this.logger.warn(`slow query (${time} ms): ${query.slice(0, 500)}`);
  }

  logSchemaBuild(): void {}

  logMigration(): void {}

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    if (level === 'warn') this.logger.warn(String(message));
  }
}
