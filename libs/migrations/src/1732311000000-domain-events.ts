import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { column } from './columns';

/**
 * `domain_events` (owned by platform events): the transactional outbox. `DomainEvents.record` inserts a
 * row in the transaction of the change; a consumer (the webhooks dispatcher) claims rows for a while
 * (`claim_token`, `claimed_until`: a lease, so one instance hands each event on) and deletes them once
 * handed on. `event_id` is the stable id receivers see (`webhook-id`).
 */
export class DomainEvents1732311000000 implements MigrationInterface {
  name = 'DomainEvents1732311000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'domain_events',
        columns: [
          column.id(),
          column.string('event_id', { length: '40' }),
          column.string('type', { length: '100' }),
          column.text('data'),
          column.datetime('occurred_at'),
          column.datetime('claimed_until', { isNullable: true }),
          column.string('claim_token', { length: '40', isNullable: true }),
        ],
        indices: [{ columnNames: ['event_id'], isUnique: true }, { columnNames: ['claim_token'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('domain_events');
  }
}
