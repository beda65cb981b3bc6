import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { InTransaction } from '@dam/events';
import { DataSource, In } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { AssetAttributeValueEntity } from './entities/asset-attribute-value.entity';
import {
  AssetAccessLevelEntity,
  AssetCategoryEntity,
  AssetParentEntity,
} from './entities/asset-links.entity';
import { AssetPendingEditEntity } from './entities/asset-pending-edit.entity';
import { AssetEntity } from './entities/asset.entity';
import { AssetRecord, AttributeValue, PlacedAsset } from './ports/asset-state';
import { StoredState } from './queries/asset-states.repository';
import { AssetTalliesRepository } from './queries/asset-tallies.repository';
import { hasPendingEdit } from './rules/approval-state';

export interface NewAsset {
  submitted: boolean;
  uploadPending: boolean;
  assetTypeId: number | null;
  addedByUserId: number;
  accessLevelIds: number[];
}

type Raw = Record<string, unknown>;

/** The columns of `assets` as AssetRecord names them (the entity's property names). */
const ASSET_COLUMNS: ReadonlyArray<[keyof AssetRecord & keyof AssetEntity, string]> = [
  ['id', 'id'],
  ['submitted', 'submitted'],
  ['uploadPending', 'upload_pending'],
  ['contentPending', 'content_pending'],
  ['archived', 'archived'],
  ['type', 'type'],
  ['contentSha256', 'content_sha256'],
  ['assetTypeId', 'asset_type_id'],
  ['addedByUserId', 'added_by_user_id'],
  ['createdAt', 'created_at'],
  ['updatedAt', 'updated_at'],
  ['version', 'version'],
];

/** `a.<column> AS <column>, ...` of the asset row. */
const ASSET_SELECT = ASSET_COLUMNS.map(([, column]) => `a.${column} AS ${column}`).join(', ');

/** An id list aggregated in SQL: GROUP_CONCAT on MySQL/MariaDB, group_concat on SQLite (same name). */
const idList = (table: string, column: string): string =>
  `(SELECT GROUP_CONCAT(x.${column}) FROM ${table} x WHERE x.asset_id = a.id)`;

/**
 * One statement for the whole state of an asset: the asset row with its levels, categories and parents
 * as id lists and whether an edit is pending, then (UNION ALL) one row per attribute value in the asked
 * storage languages. The asset row is the one without an attribute id.
 */
function wholeAssetSql(languageCount: number): string {
  const nulls = ASSET_COLUMNS.map(([, column]) => `NULL AS ${column}`).join(', ');
  return (
    `SELECT ${ASSET_SELECT}, ` +
    `${idList('asset_access_levels', 'access_level_id')} AS level_ids, ` +
    `${idList('asset_categories', 'category_id')} AS category_ids, ` +
    `${idList('asset_parents', 'parent_id')} AS parent_ids, ` +
    '(SELECT COUNT(*) FROM asset_pending_edits e WHERE e.asset_id = a.id) AS pending_edits, ' +
    'NULL AS attribute_id, NULL AS language, NULL AS value ' +
    'FROM assets a WHERE a.id = ? ' +
    'UNION ALL ' +
    `SELECT ${nulls}, NULL, NULL, NULL, NULL, v.attribute_id, v.language, v.value ` +
    'FROM asset_attribute_values v WHERE v.asset_id = ? ' +
    `AND v.language IN (${Array.from({ length: languageCount }, () => '?').join(', ')})`
  );
}

/** wholeAssetSql by language count (1 or 2), built once. */
const wholeAssetSqls: string[] = [];

/** Ids from a GROUP_CONCAT (a string, or bytes on MySQL for numbers), ascending. */
function ids(raw: unknown): number[] {
  if (raw === null || raw === undefined) return [];
  const text = String(raw);
  if (text === '') return [];
  return text
    .split(',')
    .map(Number)
    .sort((a, b) => a - b);
}

/** The key of a kept whole state: the asset and its storage languages (each once, in order). */
function wholeKey(id: number, languages: readonly string[]): string {
  // The reader's two (the default language's and the request's), most often the same: no Set then.
  if (languages.length === 2 && languages[0] === languages[1]) return `${id}:${languages[0]}`;
  return `${id}:${[...new Set(languages)].join(',')}`;
}

/** The part of better-sqlite3's Database that versionOf uses. */
interface SqliteConnection {
  prepare(sql: string): { get(id: number): Raw | undefined };
}

/** The version of an asset: what says whether a state read earlier is still the asset's state. */
const VERSION_SQL = 'SELECT a.version AS version FROM assets a WHERE a.id = ?';

/**
 * Whole states kept in memory (AssetsRepository.findWhole): a few KB each, so a few MB at most. The
 * least recently read goes first.
 */
const WHOLE_STATES_KEPT = 2000;

/** Reads of one asset and its placement; creation and deletion. */
@Injectable()
export class AssetsRepository {
  private columns: Map<string, ColumnMetadata> | undefined;
  /** findWhole's states by `{id}:{storage languages}`, each as of the version it holds. */
  private readonly wholeStates = new Map<string, StoredState>();
  /** SQLite: VERSION_SQL prepared once on the driver's connection (versionOf). */
  private versionStatement: { get(id: number): Raw | undefined } | undefined;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly tallies: AssetTalliesRepository,
  ) {}

  /** The asset and its access levels, in one statement. */
  async findPlaced(id: number): Promise<PlacedAsset | null> {
    const rows: Raw[] = await this.dataSource.query(
      `SELECT ${ASSET_SELECT}, ${idList('asset_access_levels', 'access_level_id')} AS level_ids ` +
        'FROM assets a WHERE a.id = ?',
      [id],
    );
    const [row] = rows;
    return row === undefined ? null : { asset: this.toAssetRecord(row), accessLevelIds: ids(row.level_ids) };
  }

  /**
   * Everything GET shows of an asset: the row, levels, categories, parents, the pending-edit flag and the
   * values in `languages` (storage keys). Read in one statement (hand-written SQL on the same connection)
   * and kept; a state kept from an earlier read is answered after one primary-key read of the asset's
   * version, when that is still the version it holds.
   *
   * That is right on every instance at once because the version is the asset's own: every write of an
   * asset's state raises it in the transaction that changes the state (AssetWrites.touch,
   * AssetContentWrites, and the deletion of a parent for its children), and the state is read with its
   * version in one statement, so a state is never kept under a version it does not belong to. Ids are
   * never reused (AUTOINCREMENT on SQLite, InnoDB's persisted AUTO_INCREMENT): a deleted asset's kept
   * state goes at its next read, whose probe finds no row. The uploader's name, the attribute catalogue and the language are not part
   * of the state: they come from their owners' caches on every read.
   */
  async findWhole(id: number, languages: string[]): Promise<StoredState | null> {
    const cacheKey = wholeKey(id, languages);
    const held = this.wholeStates.get(cacheKey);
    if (held !== undefined) {
      const current = await this.versionOf(id);
      const still = this.stillHeld(cacheKey, held, current);
      if (still !== undefined) return still;
    }
    const state = await this.readWhole(id, [...new Set(languages)]);
    if (state !== null) this.keepWhole(cacheKey, state);
    return state;
  }

  /**
   * `findWhole` without a promise when it can answer so: on SQLite (whose statements run synchronously),
   * for a state kept from an earlier read, after the same primary-key read of the asset's version. The
   * state, or null when the asset is gone; undefined when `findWhole` must answer (MySQL, a state not
   * kept, or kept at an older version).
   */
  heldWhole(id: number, languages: readonly string[]): StoredState | null | undefined {
    if (this.dataSource.options.type !== 'better-sqlite3') return undefined;
    const cacheKey = wholeKey(id, languages);
    const held = this.wholeStates.get(cacheKey);
    if (held === undefined) return undefined;
    return this.stillHeld(cacheKey, held, this.sqliteVersionOf(id));
  }

  /**
   * A kept state against the asset's row read now (`current`): the state, moved to the most recently
   * read end, while it is the asset's version; null when the asset is gone; undefined (the state let go)
   * when the asset has moved on.
   */
  private stillHeld(
    cacheKey: string,
    held: StoredState,
    current: Raw | undefined,
  ): StoredState | null | undefined {
    this.wholeStates.delete(cacheKey);
    if (current === undefined) return null;
    if (Number(current.version) !== held.asset.version) return undefined;
    this.wholeStates.set(cacheKey, held);
    return held;
  }

  /**
   * The asset's row with its version, undefined when there is none. On SQLite the statement runs prepared
   * on the driver's one connection (synchronous, as every SQLite statement here): TypeORM's query runner
   * around it cost more than the statement, on the hottest read. MySQL goes through the query runner,
   * whose deadline (DAM_DATABASE_TIMEOUT_MS) it needs.
   */
  private async versionOf(id: number): Promise<Raw | undefined> {
    if (this.dataSource.options.type !== 'better-sqlite3') {
      const [current]: Raw[] = await this.dataSource.query(VERSION_SQL, [id]);
      return current;
    }
    return this.sqliteVersionOf(id);
  }

  private sqliteVersionOf(id: number): Raw | undefined {
    const connection = (this.dataSource.driver as unknown as { databaseConnection: SqliteConnection })
      .databaseConnection;
    this.versionStatement ??= connection.prepare(VERSION_SQL);
    return this.versionStatement.get(id);
  }

  private keepWhole(cacheKey: string, state: StoredState): void {
    // Frozen: every reader gets this same object, so a change by one would show in the others' answers.
    for (const list of [state.accessLevelIds, state.categoryIds, state.parentIds, state.values]) {
      Object.freeze(list);
    }
    Object.freeze(state.asset);
    this.wholeStates.set(cacheKey, Object.freeze(state));
    if (this.wholeStates.size > WHOLE_STATES_KEPT) {
      const oldest = this.wholeStates.keys().next();
      if (oldest.done !== true) this.wholeStates.delete(oldest.value);
    }
  }

  /** findWhole's one statement. */
  private async readWhole(id: number, keys: string[]): Promise<StoredState | null> {
    const sql = (wholeAssetSqls[keys.length] ??= wholeAssetSql(keys.length));
    const rows: Raw[] = await this.dataSource.query(sql, [id, id, ...keys]);
    const row = rows.find(
      (candidate) => candidate.attribute_id === null || candidate.attribute_id === undefined,
    );
    if (row === undefined) return null;
    const asset = this.toAssetRecord(row);
    const values: AttributeValue[] = [];
    for (const value of rows) {
      if (value === row) continue;
      values.push({
        attributeId: Number(value.attribute_id),
        language: String(value.language),
        value: String(value.value),
      });
    }
    return {
      asset,
      accessLevelIds: ids(row.level_ids),
      categoryIds: ids(row.category_ids),
      parentIds: ids(row.parent_ids),
      values,
      hasPendingEdit: hasPendingEdit(asset, Number(row.pending_edits) > 0),
    };
  }

  /** The rest of an asset's state, with attribute values in the given storage languages only. */
  async loadState(placed: PlacedAsset, languages: string[]): Promise<StoredState> {
    const assetId = placed.asset.id;
    const [categories, parents, values, editRow] = await Promise.all([
      this.dataSource
        .getRepository(AssetCategoryEntity)
        .find({ where: { assetId }, order: { categoryId: 'ASC' } }),
      this.dataSource
        .getRepository(AssetParentEntity)
        .find({ where: { assetId }, order: { parentId: 'ASC' } }),
      this.dataSource.getRepository(AssetAttributeValueEntity).findBy({ assetId, language: In(languages) }),
      this.dataSource.getRepository(AssetPendingEditEntity).existsBy({ assetId }),
    ]);
    return {
      ...placed,
      categoryIds: categories.map((row) => row.categoryId),
      parentIds: parents.map((row) => row.parentId),
      values: values.map(({ attributeId, language, value }) => ({ attributeId, language, value })),
      hasPendingEdit: hasPendingEdit(placed.asset, editRow),
    };
  }

  /** `within` runs in the same transaction, with the new id (the owner records its events there). */
  async create(asset: NewAsset, within?: InTransaction): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const now = new Date();
      // The set of levels goes into the row as it is written (set afterwards, every new row would grow
      // and split its page).
      const levelSetId = await this.tallies.levelSet(manager, asset.accessLevelIds);
      const saved = await manager.getRepository(AssetEntity).save(
        Object.assign(new AssetEntity(), {
          submitted: asset.submitted,
          uploadPending: asset.uploadPending,
          contentPending: false,
          archived: false,
          type: 'File',
          contentSha256: null,
          assetTypeId: asset.assetTypeId,
          addedByUserId: asset.addedByUserId,
          createdAt: now,
          updatedAt: now,
          levelSetId,
        }),
      );
      await manager
        .getRepository(AssetAccessLevelEntity)
        .insert(asset.accessLevelIds.map((accessLevelId) => ({ assetId: saved.id, accessLevelId })));
      await this.tallies.added(manager, saved.id, levelSetId, asset);
      await within?.(manager, saved.id);
      return saved.id;
    });
  }

  /** A raw asset row as the entity would hold it (the driver's own conversion of dates and booleans). */
  private toAssetRecord(row: Raw): AssetRecord {
    this.columns ??= new Map(
      this.dataSource.getMetadata(AssetEntity).columns.map((column) => [column.propertyName, column]),
    );
    const driver = this.dataSource.driver;
    const record: Record<string, unknown> = {};
    for (const [property, column] of ASSET_COLUMNS) {
      const metadata = this.columns.get(property);
      const raw = row[column];
      record[property] = metadata === undefined ? raw : driver.prepareHydratedValue(raw, metadata);
    }
    return {
      ...(record as unknown as AssetRecord),
      id: Number(record.id),
      assetTypeId: record.assetTypeId === null ? null : Number(record.assetTypeId),
      addedByUserId: record.addedByUserId === null ? null : Number(record.addedByUserId),
      version: Number(record.version),
    };
  }

  /**
   * Values, placements, parents and pending edits go with it (foreign keys cascade). Its children lose a
   * parent by the cascade: their versions go up in the same transaction, since their state changes.
   * `keep` runs first in the transaction, with the asset locked (the trash keeps its rows there).
   */
  async delete(id: number, within?: InTransaction, keep?: InTransaction): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const tallied = await this.tallies.lockedState(manager, id);
      if (tallied !== undefined) await keep?.(manager, id);
      await manager.query(
        'UPDATE assets SET version = version + 1 WHERE id IN (SELECT p.asset_id FROM asset_parents p WHERE p.parent_id = ?)',
        [id],
      );
      await manager.getRepository(AssetEntity).delete({ id });
      await this.tallies.removed(manager, tallied);
      await within?.(manager, id);
    });
  }
}
