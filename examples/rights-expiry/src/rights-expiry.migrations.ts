import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '@dam/core';
import { dataSourceOptions, runMigrations } from '@dam/database';
import { DataSource } from 'typeorm';
import { RightsExpiry1732311120000 } from './migrations/1732311120000-rights-expiry';

/** The module's migrations, oldest first. */
export const RIGHTS_EXPIRY_MIGRATIONS = [RightsExpiry1732311120000];

/**
 * Brings the module's own table up to date at boot: the platform's connection settings, the module's
 * migrations and history table, under the platform's migration lock (so instances booting together
 * migrate once). The platform's migrations have run by then (they run before any module initialises).
 */
@Injectable()
export class RightsExpiryMigrations implements OnModuleInit {
  private readonly logger = new Logger('RightsExpiry');

  constructor(private readonly config: AppConfig) {}

  async onModuleInit(): Promise<void> {
    const dataSource = await new DataSource({
      ...dataSourceOptions(this.config, RIGHTS_EXPIRY_MIGRATIONS),
      migrationsTableName: 'rights_expiry_migrations',
    } as never).initialize();
    try {
      for (const name of await runMigrations(dataSource)) this.logger.log(`applied ${name}`);
    } finally {
      await dataSource.destroy();
    }
  }
}
