import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AssetFilter } from '../ports/asset-filter';
import {
  groupedAssetIdsSql,
  KeywordPlan,
  nextTokenSql,
  PlannedConjunction,
  prefixBounds,
  probedAssetIdsSql,
  scannedAssetIdsSql,
  TokenMatch,
  tokenRangeSql,
} from './keyword.sql';
import { chooseConjunctionForm, keyProbeDriver, keyProbePays, planKeywords } from './keyword-plan';
import { Id, MAX_LISTED_IDS, maxAssetId, QuerySources, rowsOf } from './query-sources';
import { SqlParams } from './sql-params';

/**
 * A conjunction of words is read by scanning its commonest condition against the others' assets when that
 * condition has at least this many times the others' estimated rows together (`misoba nuba*`: 14 times).
 */
const SCAN_COMMONEST_RATIO = 4;

/**
 * SQLite counts a token condition's rows up to this many (a few milliseconds), and drives a conjunction
 * from its rarest condition only below it: the probes from the rarest's rows stay within about 0.1 s.
 */
const SQLITE_ROW_COUNT_CAP = 50_000;

/** Slices of the assets that the scanned form of an AND reads side by side (scannedInSlices). */
const SCAN_SLICES = 2;

/** A prefix covering more tokens than this is scanned as one range (reading them out costs a step each). */
const MAX_SCANNED_TOKENS = 32;

/**
 * The keyword plan of a filter (keyword-plan.ts decides, from what this reads): each token condition's
 * estimated rows, and the conjunctions of words read once, beforehand, on the read replica.
 */
@Injectable()
export class KeywordPlanRepository {
  private readonly plans = new WeakMap<AssetFilter, Promise<KeywordPlan>>();

  constructor(private readonly sources: QuerySources) {}

  /**
   * The conjunctions of words that search reads otherwise than by a semi-join per token, planned once
   * per filter: a search's page and its facets ask with the same filter, side by side.
   */
  plan(filter: AssetFilter): Promise<KeywordPlan> {
    let plan = this.plans.get(filter);
    if (plan === undefined) {
      plan = planKeywords(
        filter.keywords,
        (conditions) => this.tokenRowEstimates(conditions),
        (conditions, attributeIds, rows) => this.conjunctionMatches(conditions, attributeIds, rows),
      );
      this.plans.set(filter, plan);
    }
    return plan;
  }

  /**
   * Each token condition's index rows, every attribute, on the replica: on MySQL as it estimates them
   * (EXPLAIN of the primary-key range: index dives, no rows read); on SQLite counted up to
   * SQLITE_ROW_COUNT_CAP (at most a few milliseconds). keyword-plan.ts plans conjunctions by them.
   */
  async tokenRowEstimates(conditions: readonly TokenMatch[]): Promise<number[]> {
    const reader = this.sources.reader;
    const mysql = this.sources.mysql;
    return Promise.all(
      conditions.map(async (condition) => {
        const params = new SqlParams();
        const range = tokenRangeSql(condition, params, mysql);
        const sql = mysql
          ? `EXPLAIN ${range}`
          : `SELECT COUNT(*) AS "rows" FROM (${range} LIMIT ${SQLITE_ROW_COUNT_CAP}) r`;
        const [row] = await rowsOf<{ rows?: Id | null }>(reader, sql, params);
        return Number(row?.rows ?? 0);
      }),
    );
  }

  /**
   * A conjunction of token conditions as keyword-plan.ts plans it (ConjunctionReader), read on the
   * replica; `rows`: each condition's rows (tokenRowEstimates).
   * - MySQL, when one condition may drive the others' probes by key and that costs least (keyProbePays:
   *   two common words): the assets having every condition from the driver's rows probing the others
   *   (probedAssetIdsSql), listed when at most MAX_LISTED_IDS, else that statement as a subquery
   *   (`{ driving }`). The AND of the two commonest words at 1M answered 503 after the 5 s deadline with
   *   the grouped scan (2.7 s alone, with the page beside it); now 1.1-1.6 s.
   * - MySQL otherwise: the per-token semi-joins (undefined) when the cost model says so; else the assets having
   *   every condition, when at most MAX_LISTED_IDS, from one statement: when one condition has at least
   *   SCAN_COMMONEST_RATIO times the others' rows, its range scanned against theirs (scannedAssetIdsSql),
   *   else every row grouped by asset (groupedAssetIdsSql); past MAX_LISTED_IDS, that grouped scan as a
   *   subquery (`'grouped'`).
   * - SQLite: the rarest condition's assets probing the others (probedAssetIdsSql), when it has fewer
   *   than SQLITE_ROW_COUNT_CAP rows and they find at most MAX_LISTED_IDS assets; else the semi-joins.
   */
  async conjunctionMatches(
    conditions: readonly TokenMatch[],
    attributeIds: readonly number[],
    rows: readonly number[],
  ): Promise<PlannedConjunction | undefined> {
    const params = new SqlParams();
    let sql: string;
    const driving = this.sources.mysql ? keyProbeDriver(conditions, rows) : undefined;
    if (driving !== undefined && keyProbePays(rows, driving)) {
      sql = probedAssetIdsSql(conditions, attributeIds, params, driving);
      const found = await rowsOf<{ asset_id: Id }>(
        this.sources.reader,
        `${sql} LIMIT ${MAX_LISTED_IDS + 1}`,
        params,
      );
      return found.length <= MAX_LISTED_IDS ? found.map((row) => Number(row.asset_id)) : { driving };
    }
    if (this.sources.mysql) {
      if (chooseConjunctionForm(rows) === 'perToken') return undefined;
      const commonest = rows.indexOf(Math.max(...rows));
      const others = rows.reduce((sum, n) => sum + n, 0) - rows[commonest];
      const scanned = rows[commonest] >= SCAN_COMMONEST_RATIO * others;
      const sliced = scanned ? await this.scannedInSlices(conditions, attributeIds, commonest) : undefined;
      if (sliced !== undefined) return sliced;
      sql = scanned
        ? scannedAssetIdsSql(conditions, attributeIds, params, commonest)
        : `${groupedAssetIdsSql(conditions, attributeIds, params)} ORDER BY t.asset_id`;
    } else {
      const rarest = rows.indexOf(Math.min(...rows));
      if (rows[rarest] >= SQLITE_ROW_COUNT_CAP) return undefined;
      sql = probedAssetIdsSql(conditions, attributeIds, params, rarest);
    }
    const found = await rowsOf<{ asset_id: Id }>(
      this.sources.reader,
      `${sql} LIMIT ${MAX_LISTED_IDS + 1}`,
      params,
    );
    if (found.length <= MAX_LISTED_IDS) return found.map((row) => Number(row.asset_id));
    return this.sources.mysql ? 'grouped' : undefined;
  }

  /**
   * The scanned form (scannedAssetIdsSql) in SCAN_SLICES slices of the assets, side by side on as many
   * connections of the replica: the scanned condition's tokens are read out first (a prefix: one step
   * of its index per distinct token, at most MAX_SCANNED_TOKENS), so that each slice reads its own stretch
   * of each token's rows. `misoba nuba*` at 1M: one statement 67-73 ms, each of two slices 38-44 ms.
   * Undefined when the prefix covers too many tokens (the single statement runs); the ids, or `'grouped'`
   * past MAX_LISTED_IDS.
   */
  private async scannedInSlices(
    conditions: readonly TokenMatch[],
    attributeIds: readonly number[],
    scanned: number,
  ): Promise<readonly number[] | 'grouped' | undefined> {
    const reader = this.sources.reader;
    const tokens = await this.tokensOf(conditions[scanned], reader);
    if (tokens === undefined) return undefined;
    if (tokens.length === 0) return [];
    const top = await maxAssetId(reader);
    const size = Math.ceil(top / SCAN_SLICES);
    const slices = Array.from({ length: SCAN_SLICES }, (_, i) => ({
      tokens,
      fromAssetId: i * size + 1,
      toAssetId: i === SCAN_SLICES - 1 ? Number.MAX_SAFE_INTEGER : (i + 1) * size,
    }));
    const found = await Promise.all(
      slices.map(async (slice) => {
        const params = new SqlParams();
        const sql = `${scannedAssetIdsSql(conditions, attributeIds, params, scanned, slice)} LIMIT ${MAX_LISTED_IDS + 1}`;
        const rows = await rowsOf<{ asset_id: Id }>(reader, sql, params);
        return rows.map((row) => Number(row.asset_id));
      }),
    );
    const ids = found.flat().sort((a, b) => a - b);
    return ids.length > MAX_LISTED_IDS ? 'grouped' : ids;
  }

  /**
   * The distinct tokens of a token condition: itself, or the tokens a prefix covers, read out along the
   * primary key one step each (MariaDB would not skip through its index for them); undefined past
   * MAX_SCANNED_TOKENS.
   */
  private async tokensOf(match: TokenMatch, reader: DataSource): Promise<string[] | undefined> {
    if (!match.prefix) return [match.token];
    const bounds = prefixBounds(match.token);
    const tokens: string[] = [];
    for (;;) {
      const params = new SqlParams();
      const sql = nextTokenSql({ ...bounds, after: tokens[tokens.length - 1] }, params);
      const [row] = await rowsOf<{ token: string }>(reader, sql, params);
      if (row === undefined) return tokens;
      if (tokens.length === MAX_SCANNED_TOKENS) return undefined;
      tokens.push(row.token);
    }
  }
}
