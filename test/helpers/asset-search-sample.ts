import { DataSource } from 'typeorm';
import { bearerRequests } from './bearer-requests';
import { assetFactory, ATTRIBUTE, SearchWorld } from './search-fixtures';
import { TestApp } from './test-app';

/**
 * The assets the asset-search parameter specs search: a tower and a bridge (its child) under level A, a
 * recipe and a plain asset under level B, and an unsubmitted draft. Answers their ids by name.
 */
export async function createSearchSample(t: TestApp, w: SearchWorld): Promise<Record<string, number>> {
  const api = bearerRequests(() => t);
  const createAsset = assetFactory(() => t);
  const a: Record<string, number> = {};
  a.tower = await createAsset({
    levels: [w.levelA],
    values: [
      [ATTRIBUTE.title, 'Tower Bridge at night'],
      [ATTRIBUTE.keywords, 'london, river'],
      [w.colour, 'Red'],
      [w.rank, '10'],
      [w.shot, '01/06/2023'],
    ],
    categories: [w.categoryP],
  });
  a.brooklyn = await createAsset({
    levels: [w.levelA1],
    values: [
      [ATTRIBUTE.title, 'Brooklyn Bridge'],
      [ATTRIBUTE.description, 'New York river crossing'],
      [w.colour, 'Blue'],
      [w.rank, '9'],
    ],
    categories: [w.categoryC],
  });
  a.creme = await createAsset({
    levels: [w.levelB],
    values: [
      [ATTRIBUTE.title, 'Crème brûlée recipe'],
      [w.colour, 'Red'],
      [w.rank, '100'],
      [w.notes, 'Caramelised sugar'],
    ],
  });
  a.plain = await createAsset({ levels: [w.levelB] });
  // Unsubmitted: left out of every search below unless unsubmitted=true.
  a.draft = await createAsset({
    levels: [w.levelA],
    submit: false,
    values: [[ATTRIBUTE.title, 'Draft bridge']],
  });
  await api
    .put(`/rest/assets/${a.brooklyn}`, t.adminToken, { parents: [t.rest(`assets/${a.tower}`)] })
    .expect(200);
  // The original filename is written by content uploads, which this spec does not exercise.
  await t.app
    .get(DataSource)
    .query(
      "INSERT INTO asset_attribute_values (asset_id, attribute_id, language, value) VALUES (?, ?, '', ?)",
      [a.tower, ATTRIBUTE.originalFilename, 'Tower_100%.JPG'],
    );
  return a;
}
