import { Injectable, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  CATEGORY_SETS,
  FACET_TALLIES,
  facetColumnsSql,
  facetValuesOf,
  LEVEL_SETS,
  recountAssetCategorySets,
  recountAssetFacetTallies,
  recountAssetLevelSets,
  SetKind,
  TALLIED_FACETS,
  TalliedFacet,
} from '../tallies/asset-level-sets';
import { idSetKey, idSetText, parseIdSetText } from '../tallies/id-set-key';
import { recountAssetWordFacetTallies, recountAssetWordTallies } from '../tallies/asset-word-tallies';
import { AssetWords, AssetWordTalliesRepository, CountedWords } from './asset-word-tallies.repository';
import { ReadReplica } from '@dam/database';
import { DataSource, EntityManager } from 'typeorm';

/** What `asset_tallies` counts an asset by: its set of levels and its state. */
export interface TalliedState {
  accessLevelIds: number[];
  submitted: boolean;
  uploadPending: boolean;
}

/** An asset's tallied state as stored, with the set of levels its row names (null before the first count). */
export interface StoredState extends TalliedState {
  levelSetId: number | null;
  /** The set of categories its row names (`asset_category_sets`; null: none, or not yet counted). */
  categorySetId: number | null;
  /** What the facet tallies count it by: its categories, the year it was added and its type. */
  facetValues: FacetValues;
  /** What the word tallies count it by: its words and the attributes that hold each. */
  words: AssetWords;
}

/** The values of each tallied facet an asset has (FACET_TALLIES). */
export type FacetValues = Record<TalliedFacet, number[]>;

/** One row of a facet's tallies: how many assets of this set of levels and state have this value. */
export interface FacetTally extends Tally {
  value: number;
}

/** One row of `asset_tallies`: how many assets have this set of levels (`levelSetId`) and state. */
export interface Tally extends TalliedState {
  levelSetId: number;
  assets: number;
}

type Raw = Record<string, unknown>;

const flag = (value: unknown): boolean => value === true || Number(value) === 1;

/**
 * `asset_level_sets`, `assets.level_set_id` and `asset_tallies`: each asset names its set of levels, and
 * the tallies count the assets per set and state. Both change in the transaction of every write that
 * creates or deletes an asset or changes its levels, `submitted` or `upload_pending` (the assets
 * repositories call `added`, `removed` and `moved`), so they are always exact. A search whose only
 * condition is visibility counts from the tallies, and a viewer who sees some levels is tested against
 * the sets they may see (TalliedCounts), not against each asset's levels. `rebuild` recomputes
 * them from the assets (the rebuild-search-index job).
 */
@Injectable()
export class AssetTalliesRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly words: AssetWordTalliesRepository,
    @Optional() private readonly replica?: ReadReplica,
  ) {}

  /**
   * The state of an asset as the tallies count it, its row locked first on MySQL (`FOR UPDATE`), so that
   * two transactions changing the same asset read it one after the other (SQLite writes one at a time).
   * Called first in the transactions that change an asset.
   * The levels are read from `asset_access_levels` (what they are now in this transaction). Undefined
   * when the asset does not exist.
   */
  async lockedState(manager: EntityManager, assetId: number): Promise<StoredState | undefined> {
    // SQLite: a write first, so that the transaction (which begins here) takes the write lock, waiting
    // for it (busy_timeout), instead of reading first and failing when another process wrote since.
    if (!this.isMysql()) await manager.query('UPDATE assets SET id = id WHERE id = ?', [assetId]);
    return this.stateOf(manager, assetId, this.isMysql() ? ' FOR UPDATE' : '');
  }

  /** The asset's tallied state as this transaction sees it (`lock`: the locking clause, if any). */
  private async stateOf(
    manager: EntityManager,
    assetId: number,
    lock = '',
  ): Promise<StoredState | undefined> {
    const rows: Raw[] = await manager.query(
      'SELECT a.submitted, a.upload_pending, a.level_set_id, a.category_set_id, ' +
        `${facetColumnsSql('a', this.isMysql())} FROM assets a WHERE a.id = ?${lock}`,
      [assetId],
    );
    const row = rows[0];
    if (row === undefined) return undefined;
    const links: Raw[] = await manager.query(
      "SELECT 'level' AS link, access_level_id AS id FROM asset_access_levels WHERE asset_id = ? " +
        "UNION ALL SELECT 'category' AS link, category_id AS id FROM asset_categories WHERE asset_id = ?",
      [assetId, assetId],
    );
    const idsOf = (link: string) => links.filter((row) => row.link === link).map((row) => Number(row.id));
    return {
      accessLevelIds: idsOf('level'),
      submitted: flag(row.submitted),
      uploadPending: flag(row.upload_pending),
      levelSetId: row.level_set_id === null ? null : Number(row.level_set_id),
      categorySetId: row.category_set_id === null ? null : Number(row.category_set_id),
      facetValues: facetValuesOf(row, idsOf('category')),
      words: await this.words.wordsOf(manager, assetId),
    };
  }

  /** A new asset (no categories yet), written with `levelSetId` (from `levelSet`): counts it. */
  async added(
    manager: EntityManager,
    assetId: number,
    levelSetId: number,
    state: TalliedState,
  ): Promise<void> {
    await this.adjust(manager, levelSetId, state, 1);
    const [row]: Raw[] = await manager.query(
      `SELECT ${facetColumnsSql('a', this.isMysql())} FROM assets a WHERE a.id = ?`,
      [assetId],
    );
    await this.adjustFacets(manager, [{ levelSetId, state, values: facetValuesOf(row, []), delta: 1 }]);
  }

  async removed(manager: EntityManager, state: StoredState | undefined): Promise<void> {
    if (state === undefined || state.levelSetId === null) return;
    await this.adjust(manager, state.levelSetId, state, -1);
    await this.adjustFacets(manager, [
      { levelSetId: state.levelSetId, state, values: state.facetValues, delta: -1 },
    ]);
    await this.words.moved(manager, countedWords(state.levelSetId, state), undefined);
  }

  /**
   * The asset went from `before` to its state now (read in the same transaction): names its new set of
   * levels and moves its count. The two tally rows are written in the order of their keys, so that two
   * transactions moving assets in opposite directions lock them in the same order instead of deadlocking.
   */
  async moved(manager: EntityManager, assetId: number, before: StoredState | undefined): Promise<void> {
    // `before` came from lockedState in this transaction: the row is already ours.
    const after = await this.stateOf(manager, assetId);
    if (after === undefined) return this.removed(manager, before);
    // Most writes leave the levels as they were: their set is already known.
    const levelSetId =
      before?.levelSetId != null && idSetText(before.accessLevelIds) === idSetText(after.accessLevelIds)
        ? before.levelSetId
        : await this.levelSet(manager, after.accessLevelIds);
    const categories = after.facetValues.category;
    const categorySetId =
      categories.length === 0
        ? null
        : before?.categorySetId != null && idSetText(before.facetValues.category) === idSetText(categories)
          ? before.categorySetId
          : await this.categorySet(manager, categories);
    if (after.levelSetId !== levelSetId || after.categorySetId !== categorySetId) {
      await manager.query('UPDATE assets SET level_set_id = ?, category_set_id = ? WHERE id = ?', [
        levelSetId,
        categorySetId,
        assetId,
      ]);
    }
    const counted = before !== undefined && before.levelSetId !== null;
    const changes: Array<[number, TalliedState, number]> = [[levelSetId, after, 1]];
    const facetChanges: FacetChange[] = [{ levelSetId, state: after, values: after.facetValues, delta: 1 }];
    if (counted) {
      const previous = before.levelSetId as number;
      facetChanges.push({ levelSetId: previous, state: before, values: before.facetValues, delta: -1 });
      if (previous === levelSetId && sameState(before, after)) changes.length = 0;
      else changes.push([previous, before, -1]);
    }
    changes.sort(([a, x], [b, y]) => tallyKey(a, x).localeCompare(tallyKey(b, y)));
    for (const [setId, state, delta] of changes) await this.adjust(manager, setId, state, delta);
    // After asset_tallies, as every writer does: locks are taken in one order (tables, then keys).
    await this.adjustFacets(manager, facetChanges);
    await this.words.moved(
      manager,
      counted ? countedWords(before.levelSetId as number, before) : undefined,
      countedWords(levelSetId, after),
    );
  }

  /**
   * Every facet tally with assets of `facet` (of these `values` only, when given), with its set's levels,
   * from the read replica when there is one.
   */
  async facetTallies(facet: TalliedFacet, values?: readonly number[]): Promise<FacetTally[]> {
    if (values !== undefined && values.length === 0) return [];
    const reader = this.replica?.dataSource ?? this.dataSource;
    const { table, column } = FACET_TALLIES[facet];
    const only = values === undefined ? '' : ` AND t.${column} IN (${values.map(() => '?').join(', ')})`;
    const rows: Raw[] = await reader.query(
      `SELECT t.level_set_id, s.level_ids, t.submitted, t.upload_pending, t.${column} AS value, t.assets ` +
        `FROM ${table} t JOIN asset_level_sets s ON s.id = t.level_set_id WHERE t.assets > 0${only}`,
      values === undefined ? [] : [...values],
    );
    return rows.map((row) => ({ ...toTally(row), value: Number(row.value) }));
  }

  /** Every tally with assets, with its set's levels, from the read replica when there is one. */
  async tallies(): Promise<Tally[]> {
    const reader = this.replica?.dataSource ?? this.dataSource;
    const query = reader
      .createQueryBuilder()
      .select(['t.level_set_id AS level_set_id', 's.level_ids AS level_ids', 't.submitted AS submitted'])
      .addSelect(['t.upload_pending AS upload_pending', 't.assets AS assets'])
      .from('asset_tallies', 't')
      .innerJoin('asset_level_sets', 's', 's.id = t.level_set_id')
      .where('t.assets > 0');
    const rows: Raw[] = await query.getRawMany();
    return rows.map(toTally);
  }

  /**
   * Recomputes every asset's set of levels and every tally from the assets, in one transaction (as the
   * migration that created the tables filled them). Idempotent. Returns the number of tally rows.
   */
  async rebuild(): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const query = (sql: string, parameters?: unknown[]) => manager.query(sql, parameters);
      const rows = await recountAssetLevelSets(query, this.isMysql());
      await recountAssetCategorySets(query, this.isMysql());
      await recountAssetFacetTallies(query, this.isMysql());
      await recountAssetWordTallies(query, this.isMysql());
      await recountAssetWordFacetTallies(query, this.isMysql());
      return rows;
    });
  }

  /**
   * The id of a set of levels, inserted when new. On MySQL a known set is only read first (sets are
   * never deleted), so that writes of assets sharing a set do not queue on its row lock until commit; a
   * new one is inserted in one statement that also hands back the id when another transaction inserted
   * it first (LAST_INSERT_ID). SQLite writes one transaction at a time anyway, and a transaction of
   * another process that began by reading could not turn into a writer (SQLITE_BUSY_SNAPSHOT, beyond
   * busy_timeout): there the upsert comes first, RETURNING the id.
   */
  async levelSet(manager: EntityManager, accessLevelIds: number[]): Promise<number> {
    return (await this.idSet(manager, LEVEL_SETS, accessLevelIds)).id;
  }

  /**
   * The id of a set of categories, as `levelSet`; a set that may be new to this transaction gets its
   * members (ignored when they are there already: on SQLite, whose upsert does not tell, every time).
   */
  private async categorySet(manager: EntityManager, categoryIds: number[]): Promise<number> {
    const { id, mayBeNew } = await this.idSet(manager, CATEGORY_SETS, categoryIds);
    if (mayBeNew) {
      const ignore = this.isMysql() ? 'INSERT IGNORE' : 'INSERT OR IGNORE';
      const ids = [...new Set(categoryIds)].sort((a, b) => a - b);
      await manager.query(
        `${ignore} INTO asset_category_set_members (set_id, category_id) VALUES ${ids.map(() => '(?, ?)').join(', ')}`,
        ids.flatMap((categoryId) => [id, categoryId]),
      );
    }
    return id;
  }

  /** The id of a set of `kind` (see `levelSet`); `mayBeNew` unless it was read as already known. */
  private async idSet(
    manager: EntityManager,
    kind: SetKind,
    ids: number[],
  ): Promise<{ id: number; mayBeNew: boolean }> {
    const key = idSetKey(ids);
    const values = [key, idSetText(ids)];
    const insert = `INSERT INTO ${kind.sets} (${kind.key}, ${kind.ids}) VALUES (?, ?)`;
    if (this.isMysql()) {
      const known: Raw[] = await manager.query(`SELECT id FROM ${kind.sets} WHERE ${kind.key} = ?`, [key]);
      if (known.length > 0) return { id: Number(known[0].id), mayBeNew: false };
      const result: { insertId: number } = await manager.query(
        `${insert} ON DUPLICATE KEY UPDATE id = LAST_INSERT_ID(id)`,
        values,
      );
      return { id: Number(result.insertId), mayBeNew: true };
    }
    const rows: Raw[] = await manager.query(
      `${insert} ON CONFLICT (${kind.key}) DO UPDATE SET ${kind.ids} = excluded.${kind.ids} RETURNING id`,
      values,
    );
    return { id: Number(rows[0].id), mayBeNew: true };
  }

  /** One atomic upsert: concurrent writers of the same tally queue on its row. */
  private async adjust(
    manager: EntityManager,
    levelSetId: number,
    state: TalliedState,
    delta: number,
  ): Promise<void> {
    const upsert = this.isMysql()
      ? 'ON DUPLICATE KEY UPDATE assets = assets + VALUES(assets)'
      : 'ON CONFLICT (level_set_id, submitted, upload_pending) DO UPDATE SET assets = assets + excluded.assets';
    await manager.query(
      'INSERT INTO asset_tallies (level_set_id, submitted, upload_pending, assets) ' +
        `VALUES (?, ?, ?, ?) ${upsert}`,
      [levelSetId, state.submitted ? 1 : 0, state.uploadPending ? 1 : 0, delta],
    );
  }

  /**
   * The facet tallies' share of a write: each change adds `delta` for each of its values, the changes
   * merged (what leaves one row and comes back cancels out) and written per table in one statement, its
   * rows in key order (the deadlock-free order every writer follows).
   */
  private async adjustFacets(manager: EntityManager, changes: FacetChange[]): Promise<void> {
    for (const facet of TALLIED_FACETS) {
      const deltas = new Map<string, { key: unknown[]; delta: number }>();
      for (const { levelSetId, state, values, delta } of changes) {
        for (const value of values[facet]) {
          const key = [levelSetId, state.submitted ? 1 : 0, state.uploadPending ? 1 : 0, value];
          const text = `${tallyKey(levelSetId, state)}:${String(value).padStart(10, '0')}`;
          const entry = deltas.get(text) ?? { key, delta: 0 };
          entry.delta += delta;
          deltas.set(text, entry);
        }
      }
      const rows = [...deltas]
        .filter(([, entry]) => entry.delta !== 0)
        .sort(([a], [b]) => a.localeCompare(b));
      if (rows.length === 0) continue;
      const { table, column } = FACET_TALLIES[facet];
      const upsert = this.isMysql()
        ? 'ON DUPLICATE KEY UPDATE assets = assets + VALUES(assets)'
        : `ON CONFLICT (level_set_id, submitted, upload_pending, ${column}) DO UPDATE SET assets = assets + excluded.assets`;
      await manager.query(
        `INSERT INTO ${table} (level_set_id, submitted, upload_pending, ${column}, assets) VALUES ` +
          `${rows.map(() => '(?, ?, ?, ?, ?)').join(', ')} ${upsert}`,
        rows.flatMap(([, entry]) => [...entry.key, entry.delta]),
      );
    }
  }

  private isMysql(): boolean {
    return this.dataSource.options.type !== 'better-sqlite3';
  }
}

/** A facet tally's share of a write: `delta` for each of `values`, under a set of levels and state. */
interface FacetChange {
  levelSetId: number;
  state: TalliedState;
  values: FacetValues;
  delta: number;
}

/** A tally row read with its set's `level_ids`. */
function toTally(row: Raw): Tally {
  return {
    levelSetId: Number(row.level_set_id),
    accessLevelIds: parseIdSetText(String(row.level_ids ?? '')),
    submitted: flag(row.submitted),
    uploadPending: flag(row.upload_pending),
    assets: Number(row.assets),
  };
}

/** The primary key of a tally row, as one comparable text. */
function tallyKey(levelSetId: number, state: TalliedState): string {
  return `${String(levelSetId).padStart(10, '0')}:${Number(state.submitted)}:${Number(state.uploadPending)}`;
}

/** Where the word tallies count an asset of this set of levels, state and facet values, with its words. */
function countedWords(
  levelSetId: number,
  state: TalliedState & { words: AssetWords; facetValues: FacetValues },
): CountedWords {
  const { submitted, uploadPending, facetValues } = state;
  return { place: { levelSetId, submitted, uploadPending, facetValues }, words: state.words };
}

function sameState(a: TalliedState, b: TalliedState): boolean {
  return a.submitted === b.submitted && a.uploadPending === b.uploadPending;
}
