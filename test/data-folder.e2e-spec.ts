import * as fs from 'node:fs';
import * as path from 'node:path';
import { contentRequests } from './helpers/content-fixtures';
import { createTestDatabase, MATRIX, TestDatabase } from './helpers/databases';
import { Grants } from './helpers/grant-fixtures';
import { TestApp } from './helpers/test-app';

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

/**
 * Issue 36, point 7: the data folder (DAM_DATA_DIR: the SQLite file with the signing and webhook
 * secrets, the fs store's objects) is the service user's alone: folders 0700, files 0600, and a folder
 * or SQLite file left readable by others from before is tightened at boot. Both matrices store objects
 * in the folder here (STORAGE_DRIVER=fs); the SQLite file is the embedded matrix's.
 */
describe('data folder permissions', () => {
  let database: TestDatabase;
  let t: TestApp;
  const sqlite = MATRIX === 'sqlite';

  beforeAll(async () => {
    database = await createTestDatabase(MATRIX);
    // As an older version left it: world-readable folder, storage folder and database file.
    fs.chmodSync(database.dataDir, 0o755);
    fs.mkdirSync(path.join(database.dataDir, 'storage'), { mode: 0o755 });
    fs.chmodSync(path.join(database.dataDir, 'storage'), 0o755);
    if (sqlite) fs.writeFileSync(path.join(database.dataDir, 'dam.sqlite'), '', { mode: 0o644 });
    t = await TestApp.start({ database, env: { STORAGE_DRIVER: 'fs' } });
  });

  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  it('tightens the existing folder, its storage folder and the SQLite file at boot', () => {
    expect(modeOf(database.dataDir)).toBe(0o700);
    expect(modeOf(path.join(database.dataDir, 'storage'))).toBe(0o700);
    if (sqlite) {
      for (const name of fs.readdirSync(database.dataDir).filter((file) => file.startsWith('dam.sqlite'))) {
        expect([name, modeOf(path.join(database.dataDir, name))]).toEqual([name, 0o600]);
      }
    }
  });

  it('creates stored objects 0600 in folders 0700', async () => {
    const level = await new Grants(t).topLevel('Default');
    const { newAsset, upload } = contentRequests(() => t);
    const asset = await newAsset(level);
    await upload(asset, t.adminToken, Buffer.from('private bytes')).expect(200);
    const folder = path.join(database.dataDir, 'storage', 'assets', asset.split('/').pop() ?? '');
    const [object] = fs.readdirSync(folder);
    expect(modeOf(path.join(database.dataDir, 'storage', 'assets'))).toBe(0o700);
    expect(modeOf(folder)).toBe(0o700);
    expect(modeOf(path.join(folder, object))).toBe(0o600);
  });
});
