import { Injectable, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ReadReplica } from '@dam/database';
import { DataSource, EntityManager } from 'typeorm';
import { facetColumnsSql, facetValuesOf, TALLIED_FACETS, TalliedFacet } from '../tallies/asset-level-sets';
import { WORD_FACET_TALLIES, WORD_TALLIES, WORD_TOKEN_SQL } from '../tallies/asset-word-tallies';
import { idSetText, parseIdSetText } from '../tallies/id-set-key';

/** An asset's words: each token with the attributes that hold it (`idSetText`). */
export type AssetWords = ReadonlyMap<string, string>;

/**
 * What an asset's words are counted by in `asset_word_tallies`: its set of levels and its state; in the
 * WORD_FACET_TALLIES also its values of each tallied facet (its categories, the year it was added, its
 * type).
 */
export interface WordPlace {
  levelSetId: number;
  submitted: boolean;
  uploadPending: boolean;
  facetValues: Record<TalliedFacet, number[]>;
}

/** An asset as its word tallies count it: where it is counted, and its words then. */
export interface CountedWords {
  place: WordPlace;
  words: AssetWords;
}

/** One row of a word's tallies, with its set's levels. */
export interface WordTally {
  levelSetId: number;
  accessLevelIds: number[];
  submitted: boolean;
  uploadPending: boolean;
  attributeIds: number[];
  assets: number;
}

type Raw = Record<string, unknown>;

/** The places of a word's tallies a search counts (see `wordFacetCounts`): undefined for every place. */
export interface CountedPlaces {
  /** Per state (`submitted`, `upload_pending`), the sets of levels counted in it. */
  places?: Array<{ submitted: boolean; uploadPending: boolean; levelSetIds: number[] }>;
  /** The sets of attributes holding the word that are counted (`attribute_ids`). */
  attributeIds?: string[];
}

/** Sets of levels a facet statement names as parameters at most (see `facetCounts`). */
const MAX_PLACE_PARAMETERS = 1000;

/** Rows per upsert statement. */
const BATCH = 500;

const flag = (value: unknown): boolean => value === true || Number(value) === 1;

/**
 * `asset_word_tallies` (see asset-word-tallies.ts), kept in the transaction of every write that changes an
 * asset's tokens, levels or state, from the asset's words before and after the write (`wordsOf` then
 * `moved`): each (word, set of levels, state, attributes) the asset leaves loses one, each it enters
 * gains one. AssetTalliesRepository calls it beside `asset_tallies`, after the other tallies (the order
 * of locks every writer follows), rows in key order.
 */
@Injectable()
export class AssetWordTalliesRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Optional() private readonly replica?: ReadReplica,
  ) {}

  /** The asset's words as this transaction sees them (through the index on (asset_id, token)). */
  async wordsOf(manager: EntityManager, assetId: number): Promise<AssetWords> {
    const rows: Raw[] = await manager.query(
      `SELECT t.token, t.attribute_id FROM asset_search_tokens t WHERE t.asset_id = ? AND ${WORD_TOKEN_SQL}`,
      [assetId],
    );
    const byToken = new Map<string, number[]>();
    for (const row of rows) {
      const token = String(row.token);
      byToken.set(token, [...(byToken.get(token) ?? []), Number(row.attribute_id)]);
    }
    return new Map([...byToken].map(([token, ids]) => [token, idSetText(ids)]));
  }

  /**
   * The asset went from `before` to `after` (either absent: created or deleted): one upsert of the
   * differences per table (the word tallies, then each WORD_FACET_TALLIES table), nothing when its words,
   * levels, state and facet values are as they were.
   */
  async moved(
    manager: EntityManager,
    before: CountedWords | undefined,
    after: CountedWords | undefined,
  ): Promise<void> {
    const state = (place: WordPlace) => [
      place.levelSetId,
      place.submitted ? 1 : 0,
      place.uploadPending ? 1 : 0,
    ];
    const columns = 'level_set_id, submitted, upload_pending, attribute_ids';
    const wordRows = deltasOf(before, after, ({ place, words }) =>
      [...words].map(([token, attributeIds]) => [token, ...state(place), attributeIds]),
    );
    await this.upsert(manager, WORD_TALLIES, `token, ${columns}`, wordRows);
    // Then each facet's table, in the order of WORD_FACET_TALLIES: every writer locks them in one order.
    for (const facet of TALLIED_FACETS) {
      const facetRows = deltasOf(before, after, ({ place, words }) =>
        [...words].flatMap(([token, attributeIds]) =>
          place.facetValues[facet].map((value) => [token, value, ...state(place), attributeIds]),
        ),
      );
      const { table, column } = WORD_FACET_TALLIES[facet];
      await this.upsert(manager, table, `token, ${column}, ${columns}`, facetRows);
    }
  }

  /** The non-zero `deltas` added to `table` (whose key is `key`, in that order), rows in key order. */
  private async upsert(manager: EntityManager, table: string, key: string, deltas: Deltas): Promise<void> {
    const rows = [...deltas.values()]
      .filter((entry) => entry.delta !== 0)
      .sort((a, b) => compareKeys(a.key, b.key));
    const upsert = this.isMysql()
      ? 'ON DUPLICATE KEY UPDATE assets = assets + VALUES(assets)'
      : `ON CONFLICT (${key}) DO UPDATE SET assets = assets + excluded.assets`;
    const marks = `(${[...key.split(','), 'assets'].map(() => '?').join(', ')})`;
    for (let start = 0; start < rows.length; start += BATCH) {
      const batch = rows.slice(start, start + BATCH);
      await manager.query(
        `INSERT INTO ${table} (${key}, assets) VALUES ${batch.map(() => marks).join(', ')} ${upsert}`,
        batch.flatMap((entry) => [...entry.key, entry.delta]),
      );
    }
  }

  /**
   * The asset's tokens were rewritten in this transaction without a change of levels or state
   * (embedded values, the index rebuild): its words move from `before` to what they are now.
   */
  async reindexed(manager: EntityManager, assetId: number, before: AssetWords): Promise<void> {
    const [row]: Raw[] = await manager.query(
      `SELECT a.level_set_id, a.submitted, a.upload_pending, ${facetColumnsSql('a', this.isMysql())} ` +
        'FROM assets a WHERE a.id = ?',
      [assetId],
    );
    if (row === undefined || row.level_set_id === null) return;
    const categories: Raw[] = await manager.query(
      'SELECT category_id FROM asset_categories WHERE asset_id = ?',
      [assetId],
    );
    const place = {
      levelSetId: Number(row.level_set_id),
      submitted: flag(row.submitted),
      uploadPending: flag(row.upload_pending),
      facetValues: facetValuesOf(
        row,
        categories.map((category) => Number(category.category_id)),
      ),
    };
    await this.moved(
      manager,
      { place, words: before },
      { place, words: await this.wordsOf(manager, assetId) },
    );
  }

  /** Every row of `token`'s tallies with assets, with its set's levels, from the read replica when there is one. */
  async tallies(token: string): Promise<WordTally[]> {
    const reader = this.replica?.dataSource ?? this.dataSource;
    const rows: Raw[] = await reader.query(
      'SELECT w.level_set_id, s.level_ids, w.submitted, w.upload_pending, w.attribute_ids, w.assets ' +
        `FROM ${WORD_TALLIES} w JOIN asset_level_sets s ON s.id = w.level_set_id ` +
        'WHERE w.token = ? AND w.assets <> 0',
      [token],
    );
    return rows.map((row) => ({
      levelSetId: Number(row.level_set_id),
      accessLevelIds: parseIdSetText(String(row.level_ids ?? '')),
      submitted: flag(row.submitted),
      uploadPending: flag(row.upload_pending),
      attributeIds: parseIdSetText(String(row.attribute_ids)),
      assets: Number(row.assets),
    }));
  }

  /**
   * Per value of `facet`, the assets with `token` in the counted places (`counted`), summed by the
   * database over the word's rows of the facet's table (read in key order: the word, then the value),
   * from the read replica when there is one. Values whose sum is 0 are left out.
   */
  async facetCounts(
    token: string,
    facet: TalliedFacet,
    counted: CountedPlaces,
  ): Promise<Array<{ value: number; count: number }>> {
    const reader = this.replica?.dataSource ?? this.dataSource;
    const { table, column } = WORD_FACET_TALLIES[facet];
    const conditions = ['f.token = ?'];
    const params: unknown[] = [token];
    const places = counted.places?.filter((place) => place.levelSetIds.length > 0);
    if (places !== undefined && places.length === 0) return [];
    // Past MAX_PLACE_PARAMETERS sets of levels, the places are kept here instead, from the sums per place.
    const inMemory =
      places !== undefined &&
      places.reduce((n, place) => n + place.levelSetIds.length, 0) > MAX_PLACE_PARAMETERS;
    if (places !== undefined && !inMemory) {
      conditions.push(
        `(${places
          .map(
            (place) =>
              `(f.submitted = ? AND f.upload_pending = ? AND f.level_set_id IN (${place.levelSetIds.map(() => '?').join(', ')}))`,
          )
          .join(' OR ')})`,
      );
      for (const place of places) {
        params.push(place.submitted ? 1 : 0, place.uploadPending ? 1 : 0, ...place.levelSetIds);
      }
    }
    if (counted.attributeIds !== undefined) {
      if (counted.attributeIds.length === 0) return [];
      conditions.push(`f.attribute_ids IN (${counted.attributeIds.map(() => '?').join(', ')})`);
      params.push(...counted.attributeIds);
    }
    const perPlace = inMemory ? ', f.level_set_id, f.submitted, f.upload_pending' : '';
    const rows: Raw[] = await reader.query(
      `SELECT f.${column} AS value${perPlace}, SUM(f.assets) AS n FROM ${table} f ` +
        `WHERE ${conditions.join(' AND ')} GROUP BY f.${column}${perPlace}`,
      params,
    );
    const sums = new Map<number, number>();
    const kept = new Set(
      (inMemory ? places : []).flatMap((place) =>
        place.levelSetIds.map((id) => `${Number(place.submitted)}:${Number(place.uploadPending)}:${id}`),
      ),
    );
    for (const row of rows) {
      if (
        inMemory &&
        !kept.has(`${Number(flag(row.submitted))}:${Number(flag(row.upload_pending))}:${row.level_set_id}`)
      )
        continue;
      const value = Number(row.value);
      sums.set(value, (sums.get(value) ?? 0) + Number(row.n));
    }
    return [...sums].filter(([, count]) => count !== 0).map(([value, count]) => ({ value, count }));
  }

  private isMysql(): boolean {
    return this.dataSource.options.type !== 'better-sqlite3';
  }
}

/** Rows of a tallies table by their key (as JSON), each with what a write adds to it. */
type Deltas = Map<string, { key: unknown[]; delta: number }>;

/**
 * What an asset's move from `before` to `after` (either absent) adds to the rows `keysOf` names: -1 to
 * each row of `before`, +1 to each of `after` (a row in both adds 0; `upsert` skips it).
 */
function deltasOf(
  before: CountedWords | undefined,
  after: CountedWords | undefined,
  keysOf: (counted: CountedWords) => unknown[][],
): Deltas {
  const deltas: Deltas = new Map();
  for (const [counted, delta] of [
    [before, -1],
    [after, 1],
  ] as const) {
    if (counted === undefined) continue;
    for (const key of keysOf(counted)) {
      const text = JSON.stringify(key);
      const entry = deltas.get(text) ?? { key, delta: 0 };
      entry.delta += delta;
      deltas.set(text, entry);
    }
  }
  return deltas;
}

/** The order of a tallies table's primary key: token (byte order), then the numbers and texts in order. */
function compareKeys(a: unknown[], b: unknown[]): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    return Buffer.compare(Buffer.from(String(x)), Buffer.from(String(y)));
  }
  return 0;
}
