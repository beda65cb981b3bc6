import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { column } from './columns';

/** The areas whose caches follow a generation; their rows exist from the start (no first-insert race). */
const SEEDED = ['access', 'access-levels', 'attributes'];

/**
 * `cache_generations`: one counter per cached area, bumped by each write of the area in its own
 * transaction and read by every instance at most once per second (CacheGenerations), so a cache on any
 * instance notices another instance's write within that second.
 */
export class CacheGenerations1732298400000 implements MigrationInterface {
  name = 'CacheGenerations1732298400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'cache_generations',
        columns: [
          column.string('name', { length: '64', isPrimary: true }),
          column.bigint('generation', { isNullable: false, default: 0 }),
        ],
      }),
    );
    for (const name of SEEDED) {
      await queryRunner.query('INSERT INTO cache_generations (name, generation) VALUES (?, ?)', [name, 1]);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('cache_generations');
  }
}
