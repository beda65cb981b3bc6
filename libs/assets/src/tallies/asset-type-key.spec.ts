import { DataSource } from 'typeorm';
import { assetTypeKey, assetTypeKeySql, assetTypeOfKey } from './asset-level-sets';

describe('the type facet tallies key', () => {
  it('is the asset type id when there is one, else a negative key per content type, and back', () => {
    expect(assetTypeKey(7, 'Image')).toBe(7);
    const names = ['File', 'Image', 'Video', 'Audio'];
    const keys = names.map((name) => assetTypeKey(null, name));
    expect(new Set(keys).size).toBe(4);
    expect(keys.every((key) => key < 0)).toBe(true);
    expect(keys.map(assetTypeOfKey)).toEqual(names);
    expect(assetTypeOfKey(7)).toBe(7);
  });

  it('is computed alike by the recount (SQL) and by the writes (here)', async () => {
    const db = await new DataSource({ type: 'better-sqlite3', database: ':memory:' }).initialize();
    try {
      await db.query('CREATE TABLE assets (id INTEGER PRIMARY KEY, asset_type_id INTEGER, type VARCHAR(16))');
      const rows: Array<[number | null, string]> = [
        [null, 'File'],
        [null, 'Image'],
        [null, 'Video'],
        [null, 'Audio'],
        [3, 'Image'],
        [null, 'Unknown'],
      ];
      for (const [typeId, type] of rows) {
        await db.query('INSERT INTO assets (asset_type_id, type) VALUES (?, ?)', [typeId, type]);
      }
      const keys: Array<{ k: number }> = await db.query(
        `SELECT ${assetTypeKeySql('a')} AS k FROM assets a ORDER BY a.id`,
      );
      expect(keys.map((row) => row.k)).toEqual(rows.map(([typeId, type]) => assetTypeKey(typeId, type)));
    } finally {
      await db.destroy();
    }
  });
});
