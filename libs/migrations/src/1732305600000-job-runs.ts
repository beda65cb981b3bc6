import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { column } from './columns';

/**
 * `job_runs` (owned by platform jobs): one row per run of a maintenance job, scheduled or manual
 * (JobRunner). `slot` names the scheduled moment a run was for (`<job>@<ISO time>`), unique, so that among
 * instances sharing the database one runs each scheduled moment; manual runs have none. The newest 100
 * runs per job are kept.
 */
export class JobRuns1732305600000 implements MigrationInterface {
  name = 'JobRuns1732305600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'job_runs',
        columns: [
          column.id(),
          column.string('job', { length: '100' }),
          column.string('status', { length: '16' }),
          column.boolean('dry_run', false),
          column.string('trigger_kind', { length: '16' }),
          column.string('slot', { length: '160', isNullable: true }),
          column.string('holder', { length: '100' }),
          column.datetime('queued_at'),
          column.datetime('started_at', { isNullable: true }),
          column.datetime('finished_at', { isNullable: true }),
          column.text('summary', { isNullable: true }),
          column.string('error', { length: '1000', isNullable: true }),
        ],
        indices: [
          { columnNames: ['job', 'id'] },
          { columnNames: ['status'] },
          { columnNames: ['slot'], isUnique: true },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('job_runs');
  }
}
