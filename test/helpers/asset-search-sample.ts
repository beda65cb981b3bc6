import { DataSource } from 'typeorm';
import { bearerRequests } from './bearer-requests';
import { assetFactory, ATTRIBUTE, SearchWorld } from './search-fixtures';
import { appPerDescribe, TestApp } from './test-app';

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

/**
 * The 22 assets the asset-search paging and facet specs page through: titles, colours and ranks in
 * rotation over levels A, A1, B and A+B and categories P and C; every seventh (from the fourth) uploaded
 * by the uploader on level A, awaiting approval. Answers their ids in creation order.
 */
export async function createPagingSample(t: TestApp, w: SearchWorld): Promise<number[]> {
  const createAsset = assetFactory(() => t);
  const created: number[] = [];
  const levels = [[w.levelA], [w.levelA1], [w.levelB], [w.levelA, w.levelB]];
  const categories = [[w.categoryP], [w.categoryC], [], [w.categoryP, w.categoryC]];
  for (let i = 0; i < 22; i++) {
    created.push(
      await createAsset({
        levels: i % 7 === 3 ? [w.levelA] : levels[i % levels.length],
        // Some await approval: the partial viewer must not count them, the uploader counts their own.
        token: i % 7 === 3 ? w.uploader.token : undefined,
        values: [
          [
            ATTRIBUTE.title,
            `Bridge number ${String.fromCharCode(97 + ((i * 7) % 26))} ${i % 3 === 0 ? 'river' : 'road'}`,
          ],
          [w.colour, i % 3 === 0 ? 'Red' : i % 3 === 1 ? 'Blue' : ''],
          ...(i % 4 === 0 ? [] : ([[w.rank, String((i * 37) % 11)]] as Array<[number, string]>)),
        ].filter(([, value]) => value !== '') as Array<[number, string]>,
        categories: categories[i % categories.length],
      }),
    );
  }
  return created;
}

/** The app, search world and `createSearchSample` of the parameter specs, for the enclosing describe. */
export function searchSampleSuite() {
  return appPerDescribe(async (t) => {
    const w = await SearchWorld.create(t);
    return { w, sample: await createSearchSample(t, w) };
  });
}

/** The app, search world and `createPagingSample` of the cursor and facet specs, for the enclosing describe. */
export function pagingSampleSuite() {
  return appPerDescribe(async (t) => {
    const w = await SearchWorld.create(t);
    return { w, sample: await createPagingSample(t, w) };
  });
}
