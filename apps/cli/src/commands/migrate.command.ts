import { dataSourceOptions, runMigrations } from '@dam/database';
import { MIGRATIONS } from '@dam/migrations';
import { DataSource } from 'typeorm';
import { CliCommand, parseCommandLine } from './command';

/**
 * Runs pending migrations on a bare data source (the shared options, no Nest context), so that it can
 * report what it applied: booting the context would have applied them already.
 */
export const migrateCommand: CliCommand = {
  name: 'migrate',
  synopsis: '',
  summary: 'apply pending database migrations',
  async run(args, { config, print }) {
    parseCommandLine(args, {}, { min: 0, max: 0 });
    const dataSource = await new DataSource(dataSourceOptions(config, MIGRATIONS)).initialize();
    try {
      const applied = await runMigrations(dataSource);
      if (applied.length === 0) print('database is up to date');
      for (const name of applied) print(`applied ${name}`);
    } finally {
      await dataSource.destroy();
    }
  },
};
