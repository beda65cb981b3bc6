import { Injectable, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ReadReplica } from '@dam/database';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import { CompiledFilter } from './asset-filter.sql';
import { SqlParams } from './sql-params';

/** An id as the drivers answer it: a number (SQLite, MySQL INT) or a string (MySQL BIGINT, COUNT). */
export type Id = number | string;

/** Beyond a few thousand ids a list costs more than it saves (and nears SQLite's parameter limit). */
export const MAX_LISTED_IDS = 5000;

/** The databases the asset queries read: the main one, and the one search reads go to. */
@Injectable()
export class QuerySources {
  constructor(
    @InjectDataSource() readonly main: DataSource,
    @Optional() private readonly replica?: ReadReplica,
  ) {}

  /** Where search reads go: the read replica when configured (DATABASE_READ_URL), else the main database. */
  get reader(): DataSource {
    return this.replica?.dataSource ?? this.main;
  }

  get mysql(): boolean {
    return this.main.options.type === 'mysql';
  }
}

/** `SELECT ... FROM assets a WHERE <search>`. */
export function assetsWhere(search: CompiledFilter, manager: EntityManager): SelectQueryBuilder<object> {
  const query = manager.createQueryBuilder().from('assets', 'a').where('1 = 1');
  for (const condition of search.where) query.andWhere(condition);
  return query.setParameters(search.params);
}

export async function idsOf(query: SelectQueryBuilder<object>): Promise<number[]> {
  const rows: Array<{ id: Id }> = await query.getRawMany();
  return rows.map((row) => Number(row.id));
}

/** The rows of a statement written with SqlParams, on `dataSource`. */
export async function rowsOf<T>(dataSource: DataSource, sql: string, params: SqlParams): Promise<T[]> {
  const [query, parameters] = dataSource.driver.escapeQueryWithParameters(sql, params.values);
  return (await dataSource.query(query, parameters)) as T[];
}

/** An upper bound of the number of assets, read from the primary key at no cost. */
export async function maxAssetId(dataSource: DataSource): Promise<number> {
  const row: { maxId: Id | null } | undefined = await dataSource
    .createQueryBuilder()
    .select('MAX(a.id)', 'maxId')
    .from('assets', 'a')
    .getRawOne();
  return Number(row?.maxId ?? 0);
}
