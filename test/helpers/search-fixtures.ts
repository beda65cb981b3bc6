import { DataSource } from 'typeorm';
import { grant, insertAccessLevel, insertCategory } from './asset-permission-fixtures';
import { bearerRequests, pathOf } from './bearer-requests';
import { TestApp, TestUser } from './test-app';

/** Ids of the seeded system attributes on a fresh database (contract of the attributes lib). */
export const ATTRIBUTE = {
  title: 1,
  description: 2,
  keywords: 3,
  originalFilename: 4,
  dateAdded: 6,
  dateLastModified: 7,
  addedBy: 8,
  categories: 10,
};

export interface NewAsset {
  levels: number[];
  token?: string;
  submit?: boolean;
  values?: Array<[number, string]>;
  categories?: number[];
}

/** Creates assets through the API (POST, then PUT of attributes) so the search index is kept as in use. */
export function assetFactory(t: () => TestApp) {
  const api = bearerRequests(t);
  return async (asset: NewAsset): Promise<number> => {
    const token = asset.token ?? t().adminToken;
    const created = await api.post('/rest/assets', token, {
      accessLevels: asset.levels.map((id) => ({ id })),
      submit: asset.submit ?? true,
    });
    if (created.status !== 201) throw new Error(`create asset: ${created.status} ${created.text}`);
    const path = pathOf(created.headers.location as string);
    const attributes = (asset.values ?? []).map(([id, value]) => ({ id: String(id), value }));
    if (asset.categories !== undefined) {
      attributes.push({ id: String(ATTRIBUTE.categories), value: asset.categories.join(',') });
    }
    if (attributes.length > 0) {
      const updated = await api.put(path, token, { attributes });
      if (updated.status !== 200) throw new Error(`update asset: ${updated.status} ${updated.text}`);
    }
    return created.body.id as number;
  };
}

/**
 * A small library for the search specs: levels A (with child A1) and B, categories P (with child C),
 * custom attributes colour (list), rank (numeric), shot (date), notes (text, keyword-searchable), and
 * users with different permissions:
 * - viewer: view on A; other: view on B; approver: view + approve on A;
 * - uploader: view + uploadWithApproval on A (their uploads await approval).
 */
export class SearchWorld {
  levelA: number;
  levelA1: number;
  levelB: number;
  categoryP: number;
  categoryC: number;
  colour: number;
  rank: number;
  shot: number;
  notes: number;
  viewer: TestUser;
  other: TestUser;
  approver: TestUser;
  uploader: TestUser;

  static async create(t: TestApp): Promise<SearchWorld> {
    const world = new SearchWorld();
    const api = bearerRequests(() => t);
    world.levelA = await insertAccessLevel(t, { isAlwaysAssignable: true });
    world.levelA1 = await insertAccessLevel(t, { parentId: world.levelA });
    world.levelB = await insertAccessLevel(t);
    world.categoryP = await insertCategory(t, 'Parent category');
    world.categoryC = await insertCategory(t, 'Child category');
    await t.app
      .get(DataSource)
      .query('UPDATE categories SET parent_id = ? WHERE id = ?', [world.categoryP, world.categoryC]);
    const attribute = async (label: string, typeId: number, isKeywordSearchable = false): Promise<number> =>
      (await api.post('/rest/attributes', t.adminToken, { label, typeId, isKeywordSearchable }).expect(201))
        .body.id as number;
    world.colour = await attribute('Colour', 6);
    world.rank = await attribute('Rank', 8);
    world.shot = await attribute('Shot on', 3);
    world.notes = await attribute('Notes', 1, true);
    for (const value of ['Red', 'Blue']) {
      await api
        .post(`/rest/attributes/${world.colour}/list-attribute-values`, t.adminToken, { value })
        .expect(201);
    }
    [world.viewer, world.other, world.approver, world.uploader] = [
      await t.createUser(),
      await t.createUser(),
      await t.createUser(),
      await t.createUser(),
    ];
    await grant(t, world.viewer.id, [world.levelA], ['view']);
    await grant(t, world.other.id, [world.levelB], ['view']);
    await grant(t, world.approver.id, [world.levelA], ['view', 'approve']);
    await grant(t, world.uploader.id, [world.levelA], ['view', 'uploadWithApproval']);
    return world;
  }
}

/** `search(query, token?)`: the ids an asset search answers (200 expected), in order; admin by default. */
export function searcher(t: () => TestApp) {
  const api = bearerRequests(t);
  return async (query: string, token = t().adminToken): Promise<number[]> => {
    const response = await api.get(`/rest/asset-search?${query}`, token);
    expect(response.status).toBe(200);
    return (response.body as Array<{ id: number }>).map((summary) => summary.id);
  };
}

/**
 * `walk(query, token, pageSize?)`: how many assets a walk through every page of the search finds, by
 * `rel="next"`, without a count (`count=false`: no page reads the tallies); pageSize 2 by default, so
 * the walk goes through several pages.
 */
export function pageWalker(t: () => TestApp) {
  const api = bearerRequests(t);
  return async (query: string, token: string, pageSize = 2): Promise<number> => {
    let walked = 0;
    let next: string | undefined =
      `/rest/asset-search?${query}${query ? '&' : ''}count=false&pageSize=${pageSize}`;
    while (next !== undefined) {
      const page: { headers: Record<string, unknown>; body: unknown } = await api
        .get(next.replace(/^https?:\/\/[^/]+/, ''), token)
        .expect(200);
      expect(page.headers['x-total-count']).toBeUndefined();
      walked += (page.body as unknown[]).length;
      next = /<([^>]+)>;\s*rel="next"/.exec(String(page.headers.link ?? ''))?.[1];
    }
    return walked;
  };
}
