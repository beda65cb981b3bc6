import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { TokenRow, tokenRows } from '@dam/core';
import { column } from './columns';

const BACKFILL_BATCH = 2000;

interface ValueRow {
  asset_id: number | string;
  attribute_id: number | string;
  type_id: number | string;
  value: string;
}

/**
 * The asset search index: one row per (token, asset, attribute). The primary key leads with the token,
 * so an exact word and a word prefix (`token >= 'bri' AND token < 'brj'`) are both index range scans on
 * MySQL and SQLite alike, and the matching asset ids of one token come out in id order. The second
 * index serves re-indexing an asset's attribute. On MySQL the token compares byte for byte
 * (utf8mb4_bin), as on SQLite, so tokens the indexer keeps apart never collide in the primary key.
 * Existing attribute values are indexed here; afterwards the assets write path keeps it current.
 */
export class SearchIndex1732280400000 implements MigrationInterface {
  name = 'SearchIndex1732280400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = queryRunner.connection.driver.options.type === 'mysql';
    await queryRunner.createTable(
      new Table({
        name: 'asset_search_tokens',
        columns: [
          column.string('token', {
            length: '64',
            isPrimary: true,
            ...(mysql ? { collation: 'utf8mb4_bin' } : {}),
          }),
          column.int('asset_id', { isPrimary: true }),
          column.int('attribute_id', { isPrimary: true }),
        ],
        indices: [{ columnNames: ['asset_id', 'attribute_id'] }, { columnNames: ['attribute_id'] }],
        foreignKeys: [
          {
            columnNames: ['asset_id'],
            referencedTableName: 'assets',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
          {
            columnNames: ['attribute_id'],
            referencedTableName: 'attributes',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
      }),
    );
    await this.backfill(queryRunner);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('asset_search_tokens');
  }

  /** Batches of assets by id, so memory stays flat however many assets exist. */
  private async backfill(queryRunner: QueryRunner): Promise<void> {
    let after = 0;
    for (;;) {
      const assets: Array<{ id: number | string }> = await queryRunner.query(
        `SELECT id FROM assets WHERE id > ? ORDER BY id LIMIT ${BACKFILL_BATCH}`,
        [after],
      );
      if (assets.length === 0) return;
      const last = Number(assets[assets.length - 1].id);
      const rows: ValueRow[] = await queryRunner.query(
        'SELECT v.asset_id, v.attribute_id, at.type_id, v.value FROM asset_attribute_values v ' +
          'JOIN attributes at ON at.id = v.attribute_id WHERE v.asset_id > ? AND v.asset_id <= ?',
        [after, last],
      );
      await insertTokens(
        queryRunner,
        tokenRows(
          rows.map((row) => ({
            assetId: Number(row.asset_id),
            attributeId: Number(row.attribute_id),
            typeId: Number(row.type_id),
            value: row.value,
          })),
        ),
      );
      after = last;
    }
  }
}

async function insertTokens(queryRunner: QueryRunner, tuples: TokenRow[]): Promise<void> {
  for (let start = 0; start < tuples.length; start += 500) {
    const chunk = tuples.slice(start, start + 500);
    await queryRunner.query(
      `INSERT INTO asset_search_tokens (token, asset_id, attribute_id) VALUES ${chunk.map(() => '(?, ?, ?)').join(', ')}`,
      chunk.flat(),
    );
  }
}
