import { Injectable, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ReadReplica } from '@dam/database';
import { DataSource, EntityManager } from 'typeorm';
import { WORD_TALLIES, WORD_TOKEN_SQL } from '../tallies/asset-word-tallies';
import { idSetText, parseIdSetText } from '../tallies/id-set-key';

/** An asset's words: each token with the attributes that hold it (`idSetText`). */
export type AssetWords = ReadonlyMap<string, string>;

/** What an asset's words are counted by in `asset_word_tallies`: its set of levels and its state. */
export interface WordPlace {
  levelSetId: number;
  submitted: boolean;
  uploadPending: boolean;
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
   * differences, nothing when its words, levels and state are as they were.
   */
  async moved(
    manager: EntityManager,
    before: CountedWords | undefined,
    after: CountedWords | undefined,
  ): Promise<void> {
    const deltas = new Map<string, { key: unknown[]; delta: number }>();
    const add = (counted: CountedWords | undefined, delta: number) => {
      if (counted === undefined) return;
      const { levelSetId, submitted, uploadPending } = counted.place;
      for (const [token, attributeIds] of counted.words) {
        const key = [token, levelSetId, submitted ? 1 : 0, uploadPending ? 1 : 0, attributeIds];
        const text = JSON.stringify(key);
        const entry = deltas.get(text) ?? { key, delta: 0 };
        entry.delta += delta;
        deltas.set(text, entry);
      }
    };
    add(before, -1);
    add(after, 1);
    const rows = [...deltas.values()]
      .filter((entry) => entry.delta !== 0)
      .sort((a, b) => compareKeys(a.key, b.key));
    const upsert = this.isMysql()
      ? 'ON DUPLICATE KEY UPDATE assets = assets + VALUES(assets)'
      : 'ON CONFLICT (token, level_set_id, submitted, upload_pending, attribute_ids) ' +
        'DO UPDATE SET assets = assets + excluded.assets';
    for (let start = 0; start < rows.length; start += BATCH) {
      const batch = rows.slice(start, start + BATCH);
      await manager.query(
        `INSERT INTO ${WORD_TALLIES} (token, level_set_id, submitted, upload_pending, attribute_ids, assets) ` +
          `VALUES ${batch.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')} ${upsert}`,
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
      'SELECT level_set_id, submitted, upload_pending FROM assets WHERE id = ?',
      [assetId],
    );
    if (row === undefined || row.level_set_id === null) return;
    const place = {
      levelSetId: Number(row.level_set_id),
      submitted: flag(row.submitted),
      uploadPending: flag(row.upload_pending),
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

  private isMysql(): boolean {
    return this.dataSource.options.type !== 'better-sqlite3';
  }
}

/** The order of the table's primary key: token (byte order), set, state, attributes. */
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
