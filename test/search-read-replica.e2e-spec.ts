import { randomBytes } from 'node:crypto';
import { createConnection } from 'mysql2/promise';
import { AppConfig, ConfigError } from '@dam/core';
import { bearerRequests } from './helpers/bearer-requests';
import { MYSQL_SERVER_URL } from './helpers/databases';
import { assetFactory, ATTRIBUTE } from './helpers/search-fixtures';
import { TestApp } from './helpers/test-app';

/**
 * DATABASE_READ_URL: search reads (pages, counts, facets) go to the read replica, everything else to
 * DATABASE_URL. A second MariaDB database stands in for the replica: a copy of the primary's tables whose
 * data then differs, so every answer shows where it was read. MariaDB only (a replica of the embedded
 * SQLite does not exist): this spec boots on the mysql matrix whichever matrix the suite runs.
 */
describe('DATABASE_READ_URL: search reads from the read replica', () => {
  const replica = `dam_e2e_replica_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  let t: TestApp;
  const api = bearerRequests(() => t);
  const createAsset = assetFactory(() => t);
  let crane: number;
  let bridge: number;
  let level: number;

  const server = () => createConnection({ uri: MYSQL_SERVER_URL, multipleStatements: true });

  const ids = (body: unknown): number[] => (body as Array<{ id: number }>).map((summary) => summary.id);

  beforeAll(async () => {
    const admin = await server();
    await admin.query(`CREATE DATABASE \`${replica}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    await admin.end();
    t = await TestApp.start({
      matrix: 'mysql',
      env: { DATABASE_READ_URL: `${MYSQL_SERVER_URL.replace(/\/+$/, '')}/${replica}` },
    });
    const levels = await api.get('/rest/access-levels', t.adminToken).expect(200);
    level = (levels.body as Array<{ id: number }>)[0]?.id;
    if (level === undefined) {
      level = (await api.post('/rest/access-levels', t.adminToken, { name: 'Replica level' }).expect(201))
        .body.id as number;
    }
    crane = await createAsset({ levels: [level], values: [[ATTRIBUTE.title, 'Harbour crane']] });
    bridge = await createAsset({ levels: [level], values: [[ATTRIBUTE.title, 'Harbour bridge']] });
    // "Replication": the replica receives a copy of every table, then drifts: the crane loses its words
    // and the bridge gains one that the primary never had.
    const primary = new URL(t.config.databaseUrl as string).pathname.slice(1);
    const copy = await server();
    const [tables] = await copy.query(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = ? AND table_type = 'BASE TABLE'",
      [primary],
    );
    await copy.query('SET foreign_key_checks = 0');
    for (const { name } of tables as Array<{ name: string }>) {
      await copy.query(`CREATE TABLE \`${replica}\`.\`${name}\` LIKE \`${primary}\`.\`${name}\``);
      await copy.query(`INSERT INTO \`${replica}\`.\`${name}\` SELECT * FROM \`${primary}\`.\`${name}\``);
    }
    // The word tallies drift with the tokens, as a replica's copy of both would (one word's total is a sum of them).
    await copy.query(
      `UPDATE \`${replica}\`.asset_word_tallies SET assets = assets - 1 WHERE token IN
         (SELECT token FROM \`${primary}\`.asset_search_tokens WHERE asset_id = ?)`,
      [crane],
    );
    await copy.query(`DELETE FROM \`${replica}\`.asset_search_tokens WHERE asset_id = ?`, [crane]);
    await copy.query(
      `INSERT INTO \`${replica}\`.asset_search_tokens (token, asset_id, attribute_id) VALUES ('replicaonly', ?, ?)`,
      [bridge, ATTRIBUTE.title],
    );
    await copy.query(
      `INSERT INTO \`${replica}\`.asset_word_tallies (token, level_set_id, submitted, upload_pending, attribute_ids, assets)
       SELECT 'replicaonly', level_set_id, submitted, upload_pending, attribute_ids, 1
       FROM \`${replica}\`.asset_word_tallies WHERE token = 'bridge'`,
    );
    await copy.end();
  });

  afterAll(async () => {
    await t?.close();
    const admin = await server();
    await admin.query(`DROP DATABASE IF EXISTS \`${replica}\``);
    await admin.end();
  });

  it('answers pages and counts from the replica', async () => {
    const harbour = await api.get('/rest/asset-search?keywords=harbour', t.adminToken).expect(200);
    expect(ids(harbour.body)).toEqual([bridge]);
    expect(harbour.headers['x-total-count']).toBe('1');
    const only = await api.get('/rest/asset-search?keywords=replicaonly', t.adminToken).expect(200);
    expect(ids(only.body)).toEqual([bridge]);
    // The summaries themselves are loaded from the primary, which still has the title as written.
    expect(
      (only.body as Array<{ attributes: Array<{ name: string; value: string }> }>)[0].attributes,
    ).toEqual(expect.arrayContaining([expect.objectContaining({ value: 'Harbour bridge' })]));
  });

  it('counts facets on the replica', async () => {
    const response = await api
      .get('/rest/asset-search?keywords=harbour&facets=accessLevels,dateAdded:year', t.adminToken)
      .expect(200);
    const body = response.body as {
      total: number;
      facets: Record<string, Array<{ value: number; count: number }>>;
    };
    expect(body.total).toBe(1);
    expect(body.facets.accessLevels).toEqual([expect.objectContaining({ value: level, count: 1 })]);
  });

  it('walks cursors on the replica', async () => {
    const first = await api.get('/rest/asset-search?keywords=harbour+replicaonly&pageSize=1', t.adminToken);
    expect(ids(first.body)).toEqual([bridge]);
    expect(first.headers.link).not.toContain('rel="next"');
  });

  it('leaves every other read and all writes on the primary', async () => {
    await api.get(`/rest/assets/${crane}`, t.adminToken).expect(200);
    await api
      .put(`/rest/assets/${crane}`, t.adminToken, {
        attributes: [{ id: String(ATTRIBUTE.title), value: 'Harbour crane arm' }],
      })
      .expect(200);
    const written = await createConnection(t.config.databaseUrl as string);
    const [rows] = await written.query(
      'SELECT COUNT(*) AS n FROM asset_search_tokens WHERE asset_id = ? AND token = ?',
      [crane, 'arm'],
    );
    await written.end();
    expect(Number((rows as Array<{ n: number }>)[0].n)).toBe(1);
    // The replica has not caught up (nothing replicates here): search still answers from it.
    const arm = await api.get('/rest/asset-search?keywords=arm', t.adminToken).expect(200);
    expect(ids(arm.body)).toEqual([]);
  });

  it('needs DATABASE_URL', () => {
    expect(() =>
      AppConfig.fromEnv({ DATABASE_READ_URL: `${MYSQL_SERVER_URL}/${replica}`, DAM_DATA_DIR: '/tmp/unused' }),
    ).toThrow(ConfigError);
    expect(() =>
      AppConfig.fromEnv({
        DATABASE_URL: `${MYSQL_SERVER_URL}/x`,
        DATABASE_READ_URL: 'postgres://db/x',
        DAM_DATA_DIR: '/tmp/unused',
      }),
    ).toThrow(/DATABASE_READ_URL/);
  });
});
