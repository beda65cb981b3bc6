import { Injectable } from '@nestjs/common';
import { dateOfDatetime } from '@dam/core';
import { DataSource, SelectQueryBuilder } from 'typeorm';
import { AssetPage, AssetPageStart, AssetSearchPage } from '../ports/asset-queries.port';
import { CompiledFilter } from './asset-filter.sql';
import { AssetCountRepository } from './asset-count.repository';
import { idsOf, QuerySources } from './query-sources';
import { KeyedRow, keyedRows, pageQuery, ResolvedSort, toKeyedRows } from './page.sql';
import { KnownWord, SortWalkRepository, WalkedSlice } from './sort-walk.repository';
import { wordWalkQuery } from './word-walk';

/** One page of ids in a sort's order, with the total: a search's page (keyset or offset), or any page. */
@Injectable()
export class AssetPageRepository {
  constructor(
    private readonly sources: QuerySources,
    private readonly counts: AssetCountRepository,
    private readonly walks: SortWalkRepository,
  ) {}

  /**
   * One page of a search, read from the replica (ReadReplica: DATABASE_READ_URL, else the main database).
   * Asks for one row more than the page to know whether another follows; a keyset start (`after`) adds
   * the "after this row" condition on the sort key, so a deep page reads what the first does. The count
   * runs beside the page unless `count` is false, or in the page's own statement when that sorts every
   * match. A sort by value on MySQL may walk a sort copy instead (SortWalkRepository). `counted` is the
   * same filter compiled for counting (visibility materialised when nothing narrows). `known`: the total
   * counted elsewhere (one word: its tallies), for a walk that needs it to choose.
   */
  async searchPage(
    search: CompiledFilter,
    sort: ResolvedSort,
    descending: boolean,
    start: AssetPageStart,
    limit: number,
    count: boolean,
    counted: CompiledFilter = search,
    known?: KnownWord,
  ): Promise<AssetSearchPage> {
    const slice: WalkedSlice = {
      descending,
      offset: 'offset' in start ? start.offset : 0,
      limit,
      after: 'after' in start ? start.after : undefined,
    };
    const walked = await this.walks.searchPage(search, sort, slice, count, counted, known);
    const { total, rows } =
      walked.rows === undefined
        ? await this.generalPage(search, sort, slice, count ? counted : undefined, walked.total)
        : { total: walked.total, rows: walked.rows };
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const next =
      rows.length > limit && last !== undefined
        ? sort.kind === 'id'
          ? { id: last.id }
          : { key: normalisedKey(last.sortKey, sort), id: last.id }
        : undefined;
    return { ...(total === undefined ? {} : { total }), ids: page.map((row) => row.id), next };
  }

  /**
   * A search page from the general query (pageQuery), one row more than the page, on the reader, with
   * the total: `total` when already counted, else counted from `counted` (none when undefined), beside
   * the page or in its own statement.
   */
  private async generalPage(
    search: CompiledFilter,
    sort: ResolvedSort,
    { descending, offset, limit, after }: WalkedSlice,
    counted: CompiledFilter | undefined,
    total: number | undefined,
  ): Promise<{ total?: number; rows: KeyedRow[] }> {
    const reader = this.sources.reader;
    if (search.word !== undefined && sort.kind === 'id') {
      // One word in id order: along the word's token rows, stopping after the page (word-walk.ts).
      const walk = wordWalkQuery(reader, search.word, descending, offset, limit + 1, after);
      const counting =
        counted !== undefined && total === undefined ? this.counts.count(counted, reader) : total;
      const [wordTotal, rows] = await Promise.all([counting, keyedRows(walk)]);
      return { total: wordTotal, rows };
    }
    const mysql = this.sources.mysql;
    const query = pageQuery(reader, search, sort, descending, offset, limit + 1, after);
    const toCount = total === undefined ? counted : undefined;
    // A query that reads and sorts every match counts them as it goes (COUNT(*) OVER (): 2 ms more
    // than the page at 18,153 matches on MariaDB, where a count of its own took 25 ms).
    const windowed = toCount !== undefined && after === undefined && sortsEveryMatch(sort);
    if (windowed) query.addSelect('COUNT(*) OVER ()', 'total');
    // MariaDB and SQLite would read the `submitted` index and sort every match; the primary key (or,
    // on SQLite, the time index: sqliteWalk) is already in order and the walk stops after the page
    // (page 500 of the whole library on MariaDB: 141 -> 15 ms; page 1 as a quarter viewer on SQLite
    // at 1M: 344 -> 2 ms).
    const inIdOrder = search.everyAsset === true && sort.kind === 'id';
    if (inIdOrder && mysql) query.useIndex('PRIMARY');
    const walked = mysql ? undefined : sqliteWalk(search, sort);
    const paged = walked === undefined ? keyedRows(query) : keyedRowsWalking(query, reader, walked);
    const counting = toCount !== undefined && !windowed ? this.counts.count(toCount, reader) : total;
    const [countedTotal, rows] = await Promise.all([counting, paged]);
    if (!windowed || toCount === undefined) return { total: countedTotal, rows };
    // A page past the end has no row to carry the count.
    return { total: rows[0]?.total ?? (offset === 0 ? 0 : await this.counts.count(toCount, reader)), rows };
  }

  /**
   * The total and one page of ids, on the main database. Count and page run side by side, except for a
   * numeric sort on MySQL: there the count comes first, and the page may walk the sort index
   * (SortWalkRepository.page) instead of reading and sorting the value of every match.
   */
  async page(
    search: CompiledFilter,
    sort: ResolvedSort,
    descending: boolean,
    offset: number,
    limit: number,
  ): Promise<AssetPage> {
    const main = this.sources.main;
    const general = (): Promise<number[]> => idsOf(pageQuery(main, search, sort, descending, offset, limit));
    if (sort.kind !== 'value' || !sort.numeric || !this.sources.mysql) {
      const [total, ids] = await Promise.all([this.counts.count(search), general()]);
      return { total, ids };
    }
    const total = await this.counts.count(search);
    if (offset >= total) return { total, ids: [] };
    const walked = await this.walks.page(search, sort.attributeId, descending, offset, limit, total);
    return walked ?? { total, ids: await general() };
  }
}

/**
 * Whether the general query of this sort reads and sorts every match before the page (no index gives
 * its order): the value of an attribute, or the uploader's username rank. Time and id orders may walk an
 * index and stop after the page, which counting every match would undo.
 */
function sortsEveryMatch(sort: ResolvedSort): boolean {
  return sort.kind === 'value' || sort.kind === 'addedBy';
}

/**
 * How SQLite should read `assets` for a page of every asset (no condition but visibility) in id or time
 * order: in rowid order (`NOT INDEXED`, its form of `USE INDEX (PRIMARY)`) or along the time index, which
 * are already in the page's order, so the walk stops after the page. Left to itself, SQLite reads the
 * `submitted` index and sorts every match (page 1 sorted by date added at 1M: 175 ms; a quarter viewer
 * 228 ms). Undefined for any other page.
 */
function sqliteWalk(search: CompiledFilter, sort: ResolvedSort): string | undefined {
  if (search.everyAsset !== true) return undefined;
  if (sort.kind === 'id') return 'NOT INDEXED';
  if (sort.kind === 'addedAt') return 'INDEXED BY "IDX_assets_created_at_id"';
  if (sort.kind === 'modifiedAt') return 'INDEXED BY "IDX_assets_updated_at_id"';
  return undefined;
}

/** The page with the outer `assets` read as `walk` says (sqliteWalk), which the query builder cannot say. */
async function keyedRowsWalking(
  query: SelectQueryBuilder<object>,
  reader: DataSource,
  walk: string,
): Promise<KeyedRow[]> {
  const [sql, parameters] = query.getQueryAndParameters();
  const from = 'FROM "assets" "a"';
  if (!sql.includes(from)) return keyedRows(query);
  return toKeyedRows(await reader.query(sql.replace(from, `${from} ${walk}`), parameters));
}

/**
 * A sort key as a cursor carries it: numbers as numbers, times as ISO text (MySQL answers a Date, SQLite
 * its stored UTC text), texts as text, none as null.
 */
function normalisedKey(raw: unknown, sort: ResolvedSort): number | string | null {
  if (raw === null || raw === undefined) return null;
  if (sort.kind === 'addedAt' || sort.kind === 'modifiedAt') {
    return dateOfDatetime(raw instanceof Date ? raw : String(raw)).toISOString();
  }
  if (sort.kind === 'addedBy' || (sort.kind === 'value' && sort.numeric)) return Number(raw);
  return String(raw);
}
