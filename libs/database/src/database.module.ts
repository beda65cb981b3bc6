import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '@dam/core';
import { dataSourceOptions, Migrations } from './data-source-options';
import { runMigrations } from './migrator';
import { installQueryTimeout } from './query-timeout';

/** What the database holds before anything else touches it. */
export interface DatabaseSchema {
  /** The schema's history (`MIGRATIONS` of `@dam/migrations`), run at boot. */
  migrations: Migrations;
  /**
   * Run after the migrations, before the query deadline is installed: table owners' preparations of
   * the database (assets' SQLite planner statistics). Each is given the data source.
   */
  afterMigrations: ReadonlyArray<(dataSource: DataSource) => Promise<unknown>>;
}

/** The database connection; migrations run before anything else touches it. */
@Module({})
export class DatabaseModule {
  static forRoot(schema: DatabaseSchema): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [AppConfig],
          useFactory: (config: AppConfig) => ({
            ...dataSourceOptions(config, schema.migrations),
            autoLoadEntities: true,
            retryAttempts: config.databaseConnectRetries,
            retryDelay: 2000,
          }),
          dataSourceFactory: async (options) => {
            if (options === undefined) throw new Error('database options are missing');
            const dataSource = await new DataSource(options).initialize();
            await runMigrations(dataSource);
            for (const prepare of schema.afterMigrations) await prepare(dataSource);
            // After the migrations, which may run long: DAM_DATABASE_TIMEOUT_MS (see dataSourceOptions).
            if (options.maxQueryExecutionTime !== undefined)
              installQueryTimeout(dataSource, options.maxQueryExecutionTime);
            return dataSource;
          },
        }),
      ],
    };
  }
}
