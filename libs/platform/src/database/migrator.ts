import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';

const LOCK_NAME = 'dam_schema_migrations';

/**
 * Runs pending migrations. On MySQL a named lock serialises instances that boot together, so only one
 * of them migrates and the others find the work done. SQLite has a single writer anyway.
 */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  const logger = new Logger('Migrations');
  const isMysql = dataSource.options.type === 'mysql' || dataSource.options.type === 'mariadb';
  const runner = dataSource.createQueryRunner();
  try {
    if (isMysql) {
      const [row] = (await runner.query('SELECT GET_LOCK(?, 120) AS locked', [LOCK_NAME])) as Array<{
        locked: number | null;
      }>;
      if (Number(row?.locked) !== 1) throw new Error('could not take the schema migration lock within 120 s');
    }
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    for (const migration of applied) logger.log(`applied ${migration.name}`);
    return applied.map((migration) => migration.name);
  } finally {
    if (isMysql) await runner.query('SELECT RELEASE_LOCK(?)', [LOCK_NAME]).catch(() => undefined);
    await runner.release();
  }
}
