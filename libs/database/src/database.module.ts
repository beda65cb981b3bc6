import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '@dam/core';
import { dataSourceOptions, Migrations } from './data-source-options';
import { runMigrations } from './migrator';
import { installQueryTimeout } from './query-timeout';

/**
 * The database connection; `migrations` (the schema's history, `MIGRATIONS` of `@dam/migrations`) run
 * before anything else touches it.
 */
@Module({})
export class DatabaseModule {
  static forRoot(migrations: Migrations): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [AppConfig],
          useFactory: (config: AppConfig) => ({
            ...dataSourceOptions(config, migrations),
            autoLoadEntities: true,
            retryAttempts: config.databaseConnectRetries,
            retryDelay: 2000,
          }),
          dataSourceFactory: async (options) => {
            if (options === undefined) throw new Error('database options are missing');
            const dataSource = await new DataSource(options).initialize();
            await runMigrations(dataSource);
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
