import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { cascadeTo, column } from './columns';

/**
 * `webhooks` and `webhook_deliveries` (owned by libs/webhooks). A webhook is an admin-registered target
 * URL with the event types it wants and its signing secret; `failing_since` starts a streak of failures,
 * and an endpoint failing for a day is disabled (`enabled` false, `disabled_reason`). A delivery is one
 * event for one webhook (unique together, so an event is fanned out once however many instances try),
 * retried with exponential backoff (`next_attempt_at`), claimed by one instance at a time (`claim_token`,
 * `claimed_until`).
 */
export class Webhooks1732311060000 implements MigrationInterface {
  name = 'Webhooks1732311060000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'webhooks',
        columns: [
          column.id(),
          column.string('url', { length: '2048' }),
          column.text('events'),
          column.string('description', { length: '1000', isNullable: true }),
          column.string('secret', { length: '100' }),
          column.boolean('enabled', true),
          column.string('disabled_reason', { length: '500', isNullable: true }),
          column.datetime('disabled_at', { isNullable: true }),
          column.datetime('failing_since', { isNullable: true }),
          column.createdAt(),
          column.updatedAt(),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'webhook_deliveries',
        columns: [
          column.id(),
          column.int('webhook_id'),
          column.string('event_id', { length: '40' }),
          column.string('event_type', { length: '100' }),
          column.text('body'),
          column.string('status', { length: '16' }),
          column.int('attempts', { default: 0 }),
          column.int('last_status_code', { isNullable: true }),
          column.string('last_error', { length: '500', isNullable: true }),
          column.datetime('next_attempt_at', { isNullable: true }),
          column.datetime('last_attempt_at', { isNullable: true }),
          column.datetime('claimed_until', { isNullable: true }),
          column.string('claim_token', { length: '40', isNullable: true }),
          column.createdAt(),
        ],
        indices: [
          { columnNames: ['webhook_id', 'event_id'], isUnique: true },
          { columnNames: ['status', 'next_attempt_at'] },
          { columnNames: ['claim_token'] },
        ],
        foreignKeys: [cascadeTo('webhook_id', 'webhooks')],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('webhook_deliveries');
    await queryRunner.dropTable('webhooks');
  }
}
