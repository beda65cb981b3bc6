import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '@dam/core';
import { dataSourceOptions } from './data-source-options';
import { installQueryTimeout } from './query-timeout';

/**
 * The connection for reads that may lag a little behind the writes (search pages, counts, facets):
 * DATABASE_READ_URL, a MySQL/MariaDB read replica of DATABASE_URL, when set; the main DataSource
 * otherwise. A second TypeORM DataSource without entities or migrations (a replica gets its schema by
 * replication); its queries have the same deadline as the main ones. Only the owner of the tables uses
 * it, for the reads it chooses (the assets area's search queries), never for a read that must see the
 * caller's own write.
 */
@Injectable()
export class ReadReplica implements OnModuleInit, OnApplicationShutdown {
  private replica: DataSource | undefined;
  private readonly logger = new Logger('Database');

  constructor(
    private readonly config: AppConfig,
    @InjectDataSource() private readonly main: DataSource,
  ) {}

  async onModuleInit(): Promise<void> {
    const url = this.config.databaseReadUrl;
    if (url === undefined) return;
    const options = dataSourceOptions(this.config, []);
    this.replica = await new DataSource({
      ...options,
      url: url.replace(/^mariadb:/, 'mysql:'),
      migrations: [],
    } as typeof options).initialize();
    if (options.maxQueryExecutionTime !== undefined)
      installQueryTimeout(this.replica, options.maxQueryExecutionTime);
    this.logger.log('search reads go to DATABASE_READ_URL');
  }

  /** The replica, or the main DataSource when there is none. */
  get dataSource(): DataSource {
    return this.replica ?? this.main;
  }

  /** True when reads go to a separate replica. */
  get separate(): boolean {
    return this.replica !== undefined;
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.replica?.isInitialized) await this.replica.destroy();
  }
}
