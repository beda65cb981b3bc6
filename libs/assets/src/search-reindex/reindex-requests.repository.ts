import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

const TABLE = 'search_reindex_attributes';

/** An attribute whose values await a reindex, and how many changes asked for it. */
export interface ReindexRequest {
  attributeId: number;
  requests: number;
}

/**
 * `search_reindex_attributes`: the attributes whose values the search index must be rebuilt for (their
 * type changed). Written in the transaction of the change, worked off by the `reindex-attributes` job.
 */
@Injectable()
export class ReindexRequestsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Asks for a reindex of each attribute, in the caller's transaction (one more request each). */
  async request(manager: EntityManager, attributeIds: readonly number[]): Promise<void> {
    const upsert = this.isMysql()
      ? 'ON DUPLICATE KEY UPDATE requests = requests + 1'
      : 'ON CONFLICT (attribute_id) DO UPDATE SET requests = requests + 1';
    for (const attributeId of [...new Set(attributeIds)].sort((a, b) => a - b)) {
      await manager.query(`INSERT INTO ${TABLE} (attribute_id, requests) VALUES (?, 1) ${upsert}`, [
        attributeId,
      ]);
    }
  }

  async pending(): Promise<ReindexRequest[]> {
    const rows: Array<{ attribute_id: unknown; requests: unknown }> = await this.dataSource.query(
      `SELECT attribute_id, requests FROM ${TABLE} ORDER BY attribute_id`,
    );
    return rows.map((row) => ({ attributeId: Number(row.attribute_id), requests: Number(row.requests) }));
  }

  /** The request is done: removed, unless another change asked again since it was read. */
  async done({ attributeId, requests }: ReindexRequest): Promise<void> {
    await this.dataSource.query(`DELETE FROM ${TABLE} WHERE attribute_id = ? AND requests = ?`, [
      attributeId,
      requests,
    ]);
  }

  /** The ids of the assets with a value of the attribute, after `afterId`, ascending, `limit` at most. */
  async assetIdsWith(attributeId: number, afterId: number, limit: number): Promise<number[]> {
    const rows: Array<{ asset_id: unknown }> = await this.dataSource.query(
      'SELECT DISTINCT v.asset_id FROM asset_attribute_values v WHERE v.attribute_id = ? AND v.asset_id > ? ' +
        `ORDER BY v.asset_id LIMIT ${Math.max(1, Math.trunc(limit))}`,
      [attributeId, afterId],
    );
    return rows.map((row) => Number(row.asset_id));
  }

  private isMysql(): boolean {
    return this.dataSource.options.type !== 'better-sqlite3';
  }
}
