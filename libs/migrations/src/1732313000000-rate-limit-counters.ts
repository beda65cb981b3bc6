import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { column } from './columns';

/**
 * `rate_limit_counters` (owned by platform rate-limits): fixed-window hit counters that every instance
 * sharing the database updates atomically: failed password grants per username and per address, and
 * requests per access token (DAM_RATE_LIMIT_PER_MINUTE). `counter_key` names the limit and what it counts
 * (hashed where it would be a username or token); `window_ends_at` is in Unix milliseconds.
 */
export class RateLimitCounters1732313000000 implements MigrationInterface {
  name = 'RateLimitCounters1732313000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'rate_limit_counters',
        columns: [
          column.string('counter_key', { length: '100', isPrimary: true }),
          column.int('hits'),
          column.bigint('window_ends_at'),
        ],
        indices: [{ columnNames: ['window_ends_at'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('rate_limit_counters');
  }
}
