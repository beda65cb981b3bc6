import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { dataSourceOptions } from './data-source-options';
import { runMigrations } from './migrator';
import { installQueryTimeout } from './query-timeout';
import { applyPlannerStatistics } from './sqlite-planner-statistics';

/** The database connection; migrations run before anything else touches it. */
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        ...dataSourceOptions(config),
        autoLoadEntities: true,
        retryAttempts: config.databaseConnectRetries,
        retryDelay: 2000,
      }),
      dataSourceFactory: async (options) => {
        if (options === undefined) throw new Error('database options are missing');
        const dataSource = await new DataSource(options).initialize();
        await runMigrations(dataSource);
        // SQLite: the search tables' statistics where there are none (see the function).
        await applyPlannerStatistics(dataSource);
        // After the migrations, which may run long: DAM_DATABASE_TIMEOUT_MS (see dataSourceOptions).
        if (options.maxQueryExecutionTime !== undefined)
          installQueryTimeout(dataSource, options.maxQueryExecutionTime);
        return dataSource;
      },
    }),
  ],
})
export class DatabaseModule {}
