import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AssetPage, AssetPosition } from '../ports/asset-queries.port';
import { CompiledFilter } from './asset-filter.sql';
import { AssetCountRepository } from './asset-count.repository';
import { KeyedRow, keyedRows, pageQuery, ResolvedSort, sortWalkQuery, sqliteTextWalkQuery } from './page.sql';
import { assetsWhere, Id, idsOf, MAX_LISTED_IDS, maxAssetId, QuerySources } from './query-sources';
import { probeWordPays, TEXT_WALK_SHARE_OF_ESTIMATE, walkMayPay, walkPays } from './sort-walk';
import { probedWord } from './word-walk';

/** A search page's slice to walk: the page's rows from `offset`, or after `after`. */
export interface WalkedSlice {
  descending: boolean;
  offset: number;
  limit: number;
  after: AssetPosition | undefined;
}

/**
 * Pages of a sort by value on MySQL read along the order of a sort copy (`asset_sort_numbers`,
 * `asset_sort_texts`), which stops after the page, instead of the general query, which reads and sorts
 * every match: when that pays, as sort-walk.ts judges it, from the plan's estimate before counting and
 * then from the count.
 */
/** One word's counts from its tallies: what its viewer sees (the total), and every asset with the word. */
export interface KnownWord {
  total: Promise<number>;
  /** Asked only when needed: an unread promise that failed would go unhandled. */
  assets(): Promise<number>;
}

@Injectable()
export class SortWalkRepository {
  constructor(
    private readonly sources: QuerySources,
    private readonly counts: AssetCountRepository,
  ) {}

  /**
   * A search page (AssetPageRepository.searchPage) walked when that pays, on the reader: the total when it
   * was counted, and the rows (one more than the page) when the walk gave them; else nothing, for the
   * general query. `counted`: the filter compiled for counting.
   * - A number walks `asset_sort_numbers` and stops after the page (without a count, a bounded stretch).
   * - A text (offset pages) walks `asset_sort_texts` for the candidates of the page (textWalkCandidates)
   *   and sorts the page among them by the values themselves.
   * `known`: the total when counted elsewhere (one word, from its tallies): no estimate, no count here.
   */
  async searchPage(
    search: CompiledFilter,
    sort: ResolvedSort,
    slice: WalkedSlice,
    count: boolean,
    counted: CompiledFilter,
    known?: KnownWord,
  ): Promise<{ total?: number; rows?: KeyedRow[] }> {
    if (sort.kind !== 'value') return {};
    if (!this.sources.mysql) return this.sqliteWordTextPage(search, sort, slice, known);
    const reader = this.sources.reader;
    const { descending, offset, limit, after } = slice;
    // One word: its total is known (the word tallies), and a walk probes the word per asset it meets when
    // the word is common enough (probeWordPays), or tests the assets against the word's gathered ones.
    const walkedFor = async (wanted: number, assets: number, matches?: number): Promise<CompiledFilter> =>
      search.word === undefined ||
      (matches !== undefined &&
        known !== undefined &&
        !probeWordPays(wanted, assets, matches, await known.assets()))
        ? search
        : probedWord(search.word);
    const counting = count || known !== undefined;
    const total = (): Promise<number> => known?.total ?? this.counts.count(counted, reader);
    const mayPay = async (wanted: number, assets: number, share?: number): Promise<boolean> =>
      known !== undefined ||
      walkMayPay(wanted, assets, await this.estimatedMatches(search, reader), search.visibleShare, share);
    if (sort.numeric) {
      if (after?.key === null) return {};
      const walk = async (bounded: boolean, walked: CompiledFilter): Promise<KeyedRow[]> =>
        keyedRows(
          sortWalkQuery(reader, walked, {
            attributeId: sort.attributeId,
            descending,
            offset,
            limit: limit + 1,
            after,
            bounded,
          }),
        );
      const assets = await maxAssetId(reader);
      if (!counting) {
        const rows = await walk(true, await walkedFor(offset + limit, assets));
        return rows.length === limit + 1 ? { rows } : {};
      }
      if (!(await mayPay(offset + limit, assets))) return {};
      const matches = await total();
      if (offset >= matches) return { total: matches, rows: [] };
      if (!walkPays(offset + limit, assets, matches)) return { total: matches };
      const rows = await walk(false, await walkedFor(offset + limit, assets, matches));
      const filled = rows.length === limit + 1 || offset + rows.length >= matches;
      return filled ? { total: matches, rows } : { total: matches };
    }
    if (after !== undefined || !counting) return {};
    const assets = await maxAssetId(reader);
    const wanted = offset + limit + 1;
    if (!(await mayPay(wanted, assets, TEXT_WALK_SHARE_OF_ESTIMATE))) return {};
    const matches = await total();
    if (offset >= matches) return { total: matches, rows: [] };
    if (!walkPays(wanted, assets, matches)) return { total: matches };
    return this.textPage(await walkedFor(wanted, assets, matches), sort, slice, matches);
  }

  /**
   * SQLite: a common word's first pages in the order of a text walk its copies and probe the word per asset
   * (when that pays, as on MySQL), then sort the page among the candidates; otherwise nothing (the general
   * query sorts every match: 349 ms for the commonest word at 1M by title).
   */
  private async sqliteWordTextPage(
    search: CompiledFilter,
    sort: Extract<ResolvedSort, { kind: 'value' }>,
    slice: WalkedSlice,
    known: KnownWord | undefined,
  ): Promise<{ total?: number; rows?: KeyedRow[] }> {
    const { offset, limit, after } = slice;
    if (sort.numeric || after !== undefined || search.word === undefined || known === undefined) return {};
    const reader = this.sources.reader;
    const [matches, assets] = await Promise.all([known.total, maxAssetId(reader)]);
    const wanted = offset + limit + 1;
    if (offset >= matches) return { total: matches, rows: [] };
    if (!walkPays(wanted, assets, matches) || !probeWordPays(wanted, assets, matches, await known.assets()))
      return { total: matches };
    return this.textPage(probedWord(search.word), sort, slice, matches);
  }

  /**
   * An offset page of a text sort from the walk of its copies (textWalkCandidates, both databases), sorted
   * among the candidates by the values themselves; only the total when the walk cannot give the page.
   */
  private async textPage(
    walked: CompiledFilter,
    sort: Extract<ResolvedSort, { kind: 'value' }>,
    { descending, offset, limit }: WalkedSlice,
    matches: number,
  ): Promise<{ total?: number; rows?: KeyedRow[] }> {
    const reader = this.sources.reader;
    const wanted = offset + limit + 1;
    const candidates = await this.textWalkCandidates(walked, sort.attributeId, descending, wanted, reader);
    // Fewer than wanted and fewer than every match: some matches have no value (they come last).
    if (candidates === undefined || candidates.length < Math.min(wanted, matches)) return { total: matches };
    const among = { ...walked, where: [...walked.where, `a.id IN (${candidates.join(', ')})`] };
    return {
      total: matches,
      rows: await keyedRows(pageQuery(reader, among, sort, descending, offset, limit + 1)),
    };
  }

  /**
   * The page of a numeric sort on MySQL (AssetPageRepository.page), whose `total` is counted: when the
   * page is near the top of a result that is not too sparse (walkPays), the walk of the sort index in
   * order, stopping after one page. The walk only sees assets with a value; undefined when it cannot
   * fill the page (the general query answers).
   */
  async page(
    search: CompiledFilter,
    attributeId: number,
    descending: boolean,
    offset: number,
    limit: number,
    total: number,
  ): Promise<AssetPage | undefined> {
    const main = this.sources.main;
    if (!walkPays(offset + limit, await maxAssetId(main), total)) return undefined;
    const ids = await idsOf(sortWalkQuery(main, search, { attributeId, descending, offset, limit }));
    return ids.length === limit || offset + ids.length === total ? { total, ids } : undefined;
  }

  /**
   * The assets that can be among the first `wanted` matches in the order of a text (MySQL), from a walk
   * of `asset_sort_texts (attribute_id, value, asset_id)`: the copies are the values' first 64
   * characters, in the values' collation, so every match whose copy sorts before the last one walked is
   * already among them, and the matches whose copy equals it (values alike in their first 64 characters,
   * whose whole values decide) are read as well. The page is then sorted among these ids by the values
   * themselves (pageQuery), exactly as the general query sorts every match.
   */
  private async textWalkCandidates(
    search: CompiledFilter,
    attributeId: number,
    descending: boolean,
    wanted: number,
    reader: DataSource,
  ): Promise<number[] | undefined> {
    const texts = { attributeId, descending, offset: 0, table: 'asset_sort_texts' } as const;
    const walk = (limit: number, tiedValue?: unknown) =>
      !this.sources.mysql
        ? sqliteTextWalkQuery(reader, search, { attributeId, descending, limit, tiedValue })
        : tiedValue === undefined
          ? sortWalkQuery(reader, search, { ...texts, limit })
          : sortWalkQuery(reader, search, { ...texts, limit }).andWhere('sn.value = :tiedValue', {
              tiedValue,
            });
    const walked: Array<{ id: Id; sortKey: string }> = await walk(wanted).getRawMany();
    const ids = walked.map((row) => Number(row.id));
    const last = walked[walked.length - 1];
    if (walked.length < wanted || last === undefined) return ids;
    const tied = walk(MAX_LISTED_IDS, last.sortKey);
    const tie: Array<{ id: Id }> = await tied.getRawMany();
    // So many alike that the list may be cut: the general query sorts every match instead.
    if (tie.length >= MAX_LISTED_IDS) return undefined;
    return [...new Set([...ids, ...tie.map((row) => Number(row.id))])];
  }

  /**
   * About how many rows the filter reads at most, as MySQL's plan estimates them (EXPLAIN: index dives, no
   * rows read): the largest estimate of a table the outer query reads. Conditions the plan does not
   * estimate (visibility, `submitted`) are not taken off, so it is rather above the matches; a plan
   * MySQL cannot estimate reads the whole table and says so.
   */
  private async estimatedMatches(search: CompiledFilter, reader: DataSource): Promise<number> {
    const [sql, parameters] = assetsWhere(search, reader.manager)
      .select('a.id', 'id')
      .getQueryAndParameters();
    const plan: Array<{ select_type?: string; rows?: Id | null }> = await reader.query(
      `EXPLAIN ${sql}`,
      parameters,
    );
    const outer = plan.filter((row) => row.select_type === 'SIMPLE' || row.select_type === 'PRIMARY');
    return Math.max(0, ...outer.map((row) => Number(row.rows ?? 0)));
  }
}
