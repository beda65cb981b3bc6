import { AppConfig } from '@dam/core';
import { dataSourceOptions, runMigrations } from '@dam/database';
import { MIGRATIONS } from '@dam/migrations';
import { DataSource } from 'typeorm';
import { createTestDatabase, MATRIX, TestDatabase } from './helpers/databases';
import { TestApp } from './helpers/test-app';

/** Tables the database manages itself, not our migrations. */
const BOOKKEEPING_TABLES = ['migrations', 'sqlite_sequence'];

const migrationNames = MIGRATIONS.map((migration) => new migration().name ?? migration.name);

function configFor(database: TestDatabase): AppConfig {
  const env: Record<string, string> = { DAM_DATA_DIR: database.dataDir };
  if (database.databaseUrl !== undefined) env.DATABASE_URL = database.databaseUrl;
  return AppConfig.fromEnv(env);
}

/**
 * One migration applied to a library that exists: a fresh database migrated up to just before `name`,
 * filled by `fill`; then `check` with a data source that knows the migrations up to `name` (not yet run)
 * and that name. Both data sources closed and the database dropped afterwards.
 */
async function acrossMigration(
  name: string,
  fill: (before: DataSource) => Promise<void>,
  check: (after: DataSource, migration: string) => Promise<void>,
): Promise<void> {
  const fresh = await createTestDatabase();
  const options = dataSourceOptions(configFor(fresh), MIGRATIONS);
  const last = migrationNames.indexOf(name);
  expect(last).toBeGreaterThan(0);
  const before = await new DataSource({ ...options, migrations: MIGRATIONS.slice(0, last) }).initialize();
  try {
    await runMigrations(before);
    await fill(before);
    await before.destroy();
    const after = await new DataSource({
      ...options,
      migrations: MIGRATIONS.slice(0, last + 1),
    }).initialize();
    try {
      await check(after, migrationNames[last]);
    } finally {
      await after.destroy();
    }
  } finally {
    if (before.isInitialized) await before.destroy();
    await fresh.drop();
  }
}

async function appliedMigrations(dataSource: DataSource): Promise<string[]> {
  const rows = (await dataSource.query('SELECT name FROM migrations ORDER BY id')) as Array<{ name: string }>;
  return rows.map((row) => row.name);
}

async function tableNames(dataSource: DataSource): Promise<string[]> {
  const rows = (await dataSource.query(
    MATRIX === 'mysql'
      ? 'SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()'
      : "SELECT name FROM sqlite_master WHERE type = 'table'",
  )) as Array<{ name: string }>;
  return rows.map((row) => row.name).filter((name) => !BOOKKEEPING_TABLES.includes(name));
}

/** Tables, columns, indices and foreign keys, in a comparable form. */
async function schemaOf(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  try {
    const tables = await runner.getTables(await tableNames(dataSource));
    return tables
      .map((table) => ({ ...table, name: table.name.split('.').pop() ?? table.name }))
      .flatMap((table) => [
        `table ${table.name}`,
        ...table.columns.map(
          (column) => `${table.name}.${column.name} ${column.isNullable ? 'null' : 'not null'}`,
        ),
        ...table.indices.map((index) => `${table.name} index (${[...index.columnNames].sort().join(',')})`),
        ...table.foreignKeys.map(
          (key) =>
            `${table.name} fk (${key.columnNames.join(',')}) -> ${key.referencedTableName.split('.').pop()}`,
        ),
      ])
      .sort();
  } finally {
    await runner.release();
  }
}

describe(`migrations (${MATRIX})`, () => {
  it('has at least one migration, with unique names in timestamp order', () => {
    expect(migrationNames.length).toBeGreaterThan(0);
    expect(new Set(migrationNames).size).toBe(migrationNames.length);
    const stamps = migrationNames.map((name) => Number(/(\d{13})$/.exec(name)?.[1]));
    expect(stamps.every(Number.isFinite)).toBe(true);
    expect([...stamps].sort((a, b) => a - b)).toEqual(stamps);
  });

  describe('at boot', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await TestApp.start();
    });

    afterAll(async () => {
      await t?.close();
    });

    it('runs every migration on a fresh database and records it', async () => {
      const dataSource = t.app.get(DataSource);
      expect(await appliedMigrations(dataSource)).toEqual(migrationNames);
      expect(await dataSource.showMigrations()).toBe(false);
      const schema = await schemaOf(dataSource);
      expect(schema).toEqual(expect.arrayContaining(['table users', 'table oauth_tokens']));
    });

    it('running the migrations again applies nothing', async () => {
      const dataSource = t.app.get(DataSource);
      expect(await runMigrations(dataSource)).toEqual([]);
      expect(await appliedMigrations(dataSource)).toEqual(migrationNames);
    });
  });

  describe('on a data source built from the shared options', () => {
    let database: TestDatabase;
    let config: AppConfig;
    const dataSources: DataSource[] = [];

    async function open(migrations = MIGRATIONS): Promise<DataSource> {
      const dataSource = await new DataSource(dataSourceOptions(config, migrations)).initialize();
      dataSources.push(dataSource);
      return dataSource;
    }

    beforeAll(async () => {
      database = await createTestDatabase();
      config = configFor(database);
    });

    afterAll(async () => {
      for (const dataSource of dataSources) if (dataSource.isInitialized) await dataSource.destroy();
      await database?.drop();
    });

    it('every down undoes its up, in reverse order, and up works again afterwards', async () => {
      // The schema after each prefix of the migrations, applied one step at a time.
      const schemas: string[][] = [];
      for (let count = 0; count <= MIGRATIONS.length; count++) {
        const stepwise = await open(MIGRATIONS.slice(0, count));
        const applied = await runMigrations(stepwise);
        expect(applied).toEqual(count === 0 ? [] : [migrationNames[count - 1]]);
        schemas.push(await schemaOf(stepwise));
        await stepwise.destroy();
      }
      expect(schemas[0]).toEqual([]);

      const dataSource = await open();
      expect(await runMigrations(dataSource)).toEqual([]);
      for (let count = MIGRATIONS.length; count > 0; count--) {
        await dataSource.undoLastMigration({ transaction: 'each' });
        expect(await appliedMigrations(dataSource)).toEqual(migrationNames.slice(0, count - 1));
        expect(await schemaOf(dataSource)).toEqual(schemas[count - 1]);
      }

      expect(await runMigrations(dataSource)).toEqual(migrationNames);
      expect(await schemaOf(dataSource)).toEqual(schemas[MIGRATIONS.length]);
      expect(await runMigrations(dataSource)).toEqual([]);
    });

    it('changing the key of asset_sort_numbers keeps its rows, both ways, and the cascade from assets', async () => {
      const at = '2026-01-01 00:00:00';
      const rows = async (dataSource: DataSource) =>
        (
          (await dataSource.query(
            'SELECT asset_id, attribute_id, value FROM asset_sort_numbers ORDER BY asset_id, attribute_id',
          )) as Array<Record<string, unknown>>
        ).map((row) => [Number(row.asset_id), Number(row.attribute_id), Number(row.value)]);
      const stored = [
        [1, 101, 2.5],
        [1, 102, -1],
        [2, 101, 7],
      ];
      await acrossMigration(
        'SortNumbersByAttribute1732327200000',
        async (before) => {
          for (const id of [1, 2]) {
            await before.query('INSERT INTO assets (id, created_at, updated_at) VALUES (?, ?, ?)', [
              id,
              at,
              at,
            ]);
            await before.query(
              'INSERT INTO attributes (id, label, type_id, created_at, updated_at) VALUES (?, ?, 8, ?, ?)',
              [100 + id, `n${id}`, at, at],
            );
          }
          for (const row of stored) {
            await before.query(
              'INSERT INTO asset_sort_numbers (asset_id, attribute_id, value) VALUES (?, ?, ?)',
              row,
            );
          }
        },
        async (after, migration) => {
          expect(await runMigrations(after)).toEqual([migration]);
          expect(await rows(after)).toEqual(stored);
          await after.undoLastMigration({ transaction: 'each' });
          expect(await rows(after)).toEqual(stored);
          expect(await runMigrations(after)).toEqual([migration]);
          await after.query('DELETE FROM assets WHERE id = ?', [1]);
          expect(await rows(after)).toEqual([[2, 101, 7]]);
        },
      );
    });

    it('the sort copy of text values is filled from an existing library, cut at 64 characters', async () => {
      const at = '2026-01-01 00:00:00';
      const long = `${'é'.repeat(60)}abcdef`; // 66 characters, 126 bytes
      await acrossMigration(
        'AssetSortTexts1732334400000',
        async (before) => {
          await before.query('INSERT INTO assets (id, created_at, updated_at) VALUES (1, ?, ?)', [at, at]);
          for (const [id, type] of [
            [101, 1],
            [102, 8],
          ]) {
            await before.query(
              'INSERT INTO attributes (id, label, type_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
              [id, `a${id}`, type, at, at],
            );
          }
          for (const [attribute, language, value] of [
            [101, '', long],
            [101, 'fr', 'traduit'],
            [102, '', '12'],
          ]) {
            await before.query(
              'INSERT INTO asset_attribute_values (asset_id, attribute_id, language, value) VALUES (1, ?, ?, ?)',
              [attribute, language, value],
            );
          }
        },
        async (after, migration) => {
          expect(await runMigrations(after)).toEqual([migration]);
          const rows: Array<Record<string, unknown>> = await after.query(
            'SELECT attribute_id, asset_id, value, complete FROM asset_sort_texts',
          );
          // The text value in the default language only (not the number, not the translation).
          expect(
            rows.map((row) => [
              Number(row.attribute_id),
              Number(row.asset_id),
              row.value,
              Number(row.complete),
            ]),
          ).toEqual([[101, 1, long.slice(0, 64), 0]]);
          await after.query('DELETE FROM assets WHERE id = 1');
          expect(await after.query('SELECT * FROM asset_sort_texts')).toEqual([]);
        },
      );
    });

    it('instances migrating the same fresh database at once apply each migration once', async () => {
      const fresh = await createTestDatabase();
      const freshConfig = configFor(fresh);
      const instances = await Promise.all(
        [1, 2, 3].map(() => new DataSource(dataSourceOptions(freshConfig, MIGRATIONS)).initialize()),
      );
      try {
        const results = await Promise.all(instances.map((instance) => runMigrations(instance)));
        expect(results.flat().sort()).toEqual([...migrationNames].sort());
        expect(await appliedMigrations(instances[0])).toEqual(migrationNames);
      } finally {
        for (const instance of instances) await instance.destroy();
        await fresh.drop();
      }
    });
  });
});
