import { MigrationInterface, QueryRunner } from 'typeorm';

const TABLE = 'asset_sort_numbers';
const BY_ASSET = 'IDX_asset_sort_numbers_asset';
const ORDER = 'IDX_asset_sort_numbers_order';

/**
 * `asset_sort_numbers` clustered by `(attribute_id, asset_id)` instead of `(asset_id, attribute_id)`.
 *
 * A page sorted by a number that cannot walk the sort index (a deep page by offset) looks up the value of
 * every match by its primary key. Clustered by asset, the rows of every numeric attribute are mixed on
 * the same pages, so those lookups read the pages of all of them; clustered by attribute, they read the
 * sorted attribute's pages only (at 1M assets with two numeric attributes: half the table, which then
 * stays in MariaDB's stock 128 MiB buffer pool beside `assets`; bench/results/asset-search.md). An index
 * on `asset_id` keeps the foreign key and the per-asset deletes of re-indexing served.
 *
 * MySQL changes the key in place. SQLite cannot change a primary key: the table is rebuilt, WITHOUT ROWID
 * so that the key is the table as in InnoDB (the value is read from the key's own b-tree).
 */
export class SortNumbersByAttribute1732327200000 implements MigrationInterface {
  name = 'SortNumbersByAttribute1732327200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (isMysql(queryRunner)) {
      await queryRunner.query(
        `ALTER TABLE ${TABLE} DROP PRIMARY KEY, ADD PRIMARY KEY (attribute_id, asset_id), ` +
          `ADD INDEX ${BY_ASSET} (asset_id)`,
      );
      return;
    }
    await rebuildSqlite(queryRunner, { primaryKey: ['attribute_id', 'asset_id'], withoutRowid: true });
    await queryRunner.query(`CREATE INDEX "${BY_ASSET}" ON "${TABLE}" ("asset_id")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (isMysql(queryRunner)) {
      await queryRunner.query(
        `ALTER TABLE ${TABLE} DROP PRIMARY KEY, ADD PRIMARY KEY (asset_id, attribute_id), DROP INDEX ${BY_ASSET}`,
      );
      return;
    }
    await rebuildSqlite(queryRunner, { primaryKey: ['asset_id', 'attribute_id'], withoutRowid: false });
  }
}

function isMysql(queryRunner: QueryRunner): boolean {
  return queryRunner.connection.driver.options.type === 'mysql';
}

/** The table again with another primary key (rows copied in its order), and its order index. */
async function rebuildSqlite(
  queryRunner: QueryRunner,
  shape: { primaryKey: string[]; withoutRowid: boolean },
): Promise<void> {
  const next = `${TABLE}_next`;
  const key = shape.primaryKey.map((name) => `"${name}"`).join(', ');
  await queryRunner.query(
    `CREATE TABLE "${next}" ("asset_id" integer NOT NULL, "attribute_id" integer NOT NULL, ` +
      `"value" real NOT NULL, PRIMARY KEY (${key}), ` +
      'FOREIGN KEY ("asset_id") REFERENCES "assets" ("id") ON DELETE CASCADE, ' +
      'FOREIGN KEY ("attribute_id") REFERENCES "attributes" ("id") ON DELETE CASCADE)' +
      (shape.withoutRowid ? ' WITHOUT ROWID' : ''),
  );
  await queryRunner.query(
    `INSERT INTO "${next}" ("asset_id", "attribute_id", "value") ` +
      `SELECT "asset_id", "attribute_id", "value" FROM "${TABLE}" ORDER BY ${key}`,
  );
  await queryRunner.query(`DROP TABLE "${TABLE}"`);
  await queryRunner.query(`ALTER TABLE "${next}" RENAME TO "${TABLE}"`);
  await queryRunner.query(`CREATE INDEX "${ORDER}" ON "${TABLE}" ("attribute_id", "value", "asset_id")`);
}
