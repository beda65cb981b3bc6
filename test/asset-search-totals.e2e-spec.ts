import { DataSource } from 'typeorm';
import { JobRegistry } from '@dam/jobs';
import { bearerRequests } from './helpers/bearer-requests';
import { grant } from './helpers/asset-permission-fixtures';
import { assetFactory, pageWalker, SearchWorld } from './helpers/search-fixtures';
import { TestApp, TestUser } from './helpers/test-app';

/**
 * The total of a search with no condition but visibility (or only categories or access levels besides)
 * comes from the tallies (counts per set of levels and state, and per category, kept in the transaction of
 * each change). Here it must equal, for every searcher and after every kind of change, the number of
 * assets a walk through every page finds (`count=false` pages do not use the tallies), for each such
 * search and its `unsubmitted=true` form.
 */
describe('GET /rest/asset-search: the total of an unfiltered search, counted from the tallies', () => {
  let t: TestApp;
  let w: SearchWorld;
  let both: TestUser;
  const api = bearerRequests(() => t);
  const createAsset = assetFactory(() => t);
  const walk = pageWalker(() => t);
  const ids: Record<string, number> = {};

  /**
   * X-Total-Count of the search, and the ids of every page walked by cursor without a count (`pageSize`
   * 2: the walk goes through several pages).
   */
  async function totalAndWalk(
    query: string,
    token: string,
    pageSize = 2,
  ): Promise<{ total: number; walked: number }> {
    const first = await api.get(`/rest/asset-search?${query}`, token).expect(200);
    const walked = await walk(query, token, pageSize);
    return { total: Number(first.headers['x-total-count']), walked };
  }

  /**
   * The searches whose totals come from the tallies: the whole library, and its assets in some
   * categories (an asset in two of them counted once) or access levels, in either `submitted` state.
   */
  function talliedSearches(): string[] {
    const categories = 'descriptiveCategoryForm.categoryIds';
    const levels = 'permissionCategoryForm.categoryIds';
    const scopes = [
      '',
      `${categories}=${w.categoryP}&includeImplicitCategoryMembers=true`,
      `${categories}=${w.categoryP}&${categories}=${w.categoryC}`,
      `${categories}=${w.categoryC}`,
      `${levels}=${w.levelA}&includeImplicitCategoryMembers=true`,
      `${levels}=${w.levelB}`,
    ];
    return scopes.flatMap((scope) => [
      scope,
      scope === '' ? 'unsubmitted=true' : `${scope}&unsubmitted=true`,
    ]);
  }

  async function expectTalliesExact(): Promise<void> {
    for (const user of [undefined, w.viewer, w.other, w.approver, w.uploader, both]) {
      const token = user?.token ?? t.adminToken;
      for (const query of talliedSearches()) {
        // The whole library walked over pages; a scope read in one page (fewer requests).
        const { total, walked } = await totalAndWalk(query, token, query.includes('CategoryForm') ? 100 : 2);
        expect({ user: user?.username ?? 'admin', query, total }).toEqual({
          user: user?.username ?? 'admin',
          query,
          total: walked,
        });
      }
    }
  }

  beforeAll(async () => {
    t = await TestApp.start();
    w = await SearchWorld.create(t);
    both = await t.createUser();
    await grant(t, both.id, [w.levelA, w.levelB], ['view']);
    const [p, c] = [w.categoryP, w.categoryC];
    ids.live = await createAsset({ levels: [w.levelA], categories: [p, c] });
    ids.twoLevels = await createAsset({ levels: [w.levelA, w.levelB], categories: [c] });
    ids.pending = await createAsset({ levels: [w.levelA], token: w.uploader.token, categories: [p, c] });
    ids.draft = await createAsset({
      levels: [w.levelA],
      token: w.uploader.token,
      submit: false,
      categories: [p],
    });
    ids.elsewhere = await createAsset({ levels: [w.levelB], categories: [p] });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('equals the assets each searcher finds, for assets in one level and in two, in every state', async () => {
    await expectTalliesExact();
    // Spot checks of the model: the viewer (view on A) sees the live ones of A, the uploader their own too.
    expect((await totalAndWalk('', w.viewer.token)).total).toBe(2);
    expect((await totalAndWalk('', w.uploader.token)).total).toBe(3);
    expect((await totalAndWalk('unsubmitted=true', w.uploader.token)).total).toBe(1);
    // In P or its child C: all but the draft for the admin (the live asset, in both, counted once); the
    // live ones of A for the viewer (view on A); those and their pending upload for the uploader.
    const inP = `descriptiveCategoryForm.categoryIds=${w.categoryP}&includeImplicitCategoryMembers=true`;
    expect((await totalAndWalk(inP, t.adminToken)).total).toBe(4);
    expect((await totalAndWalk(inP, w.viewer.token)).total).toBe(2);
    expect((await totalAndWalk(inP, w.uploader.token)).total).toBe(3);
  });

  it('stays exact when levels change, an asset is submitted, approved or deleted', async () => {
    await api
      .put(`/rest/assets/${ids.elsewhere}`, t.adminToken, {
        accessLevels: [{ id: w.levelA }, { id: w.levelB }],
      })
      .expect(200);
    await expectTalliesExact();
    await api.put(`/rest/assets/${ids.draft}`, w.uploader.token, { submitted: true }).expect(200);
    await expectTalliesExact();
    await api.post(`/rest/assets/${ids.pending}/approve`, w.approver.token, {}).expect(200);
    await expectTalliesExact();
    await api.delete(`/rest/assets/${ids.twoLevels}`, t.adminToken).expect(204);
    await expectTalliesExact();
  });

  it('gives assets created at once with a set of levels never seen before one set between them', async () => {
    const levels = [w.levelB, w.levelA1, w.levelA];
    const created = await Promise.all(Array.from({ length: 8 }, () => createAsset({ levels })));
    const db = t.app.get(DataSource);
    const sets: Array<{ id: unknown }> = await db.query(
      'SELECT id FROM asset_level_sets WHERE level_ids = ?',
      [[...levels].sort((a, b) => a - b).join(',')],
    );
    expect(sets).toHaveLength(1);
    const named: Array<{ level_set_id: unknown }> = await db.query(
      `SELECT level_set_id FROM assets WHERE id IN (${created.map(() => '?').join(', ')})`,
      created,
    );
    expect(named.map((row) => Number(row.level_set_id))).toEqual(created.map(() => Number(sets[0].id)));
    await expectTalliesExact();
  });

  it('stays exact, and every write succeeds, when assets move between levels concurrently in opposite directions', async () => {
    const p = await createAsset({ levels: [w.levelA] });
    const q = await createAsset({ levels: [w.levelB] });
    const moveTo = (id: number, level: number) =>
      api.put(`/rest/assets/${id}`, t.adminToken, { accessLevels: [{ id: level }] });
    for (let round = 0; round < 6; round++) {
      const [there, back] = round % 2 === 0 ? [w.levelB, w.levelA] : [w.levelA, w.levelB];
      const answers = await Promise.all([
        moveTo(p, there),
        moveTo(q, back),
        moveTo(p, there),
        moveTo(q, back),
      ]);
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    }
    await expectTalliesExact();
  });

  it("is rebuilt from the assets by rebuild-search-index, with each asset's sets of levels and categories", async () => {
    const db = t.app.get(DataSource);
    const snapshot = async () =>
      (
        await db.query(
          'SELECT s.level_ids, t.submitted, t.upload_pending, t.assets FROM asset_tallies t ' +
            'JOIN asset_level_sets s ON s.id = t.level_set_id WHERE t.assets > 0 ' +
            'ORDER BY s.level_ids, t.submitted, t.upload_pending',
        )
      ).map((row: Record<string, unknown>) => Object.values(row).map(String).join(' '));
    const facetSnapshot = async () =>
      (
        await db.query(
          "SELECT 'category' AS facet, s.level_ids, t.submitted, t.upload_pending, t.category_id AS value, " +
            't.assets FROM asset_category_tallies t JOIN asset_level_sets s ON s.id = t.level_set_id ' +
            "WHERE t.assets > 0 UNION ALL SELECT 'year', s.level_ids, t.submitted, t.upload_pending, t.year, " +
            't.assets FROM asset_year_tallies t JOIN asset_level_sets s ON s.id = t.level_set_id WHERE t.assets > 0 ' +
            "UNION ALL SELECT 'type', s.level_ids, t.submitted, t.upload_pending, t.type_key, t.assets " +
            'FROM asset_type_tallies t JOIN asset_level_sets s ON s.id = t.level_set_id WHERE t.assets > 0 ' +
            'ORDER BY 1, 2, 3, 4, 5',
        )
      ).map((row: Record<string, unknown>) => Object.values(row).map(String).join(' '));
    // Each asset's categories as its set names them (the category facet of a filtered search reads them).
    const categorySets = async () =>
      (
        await db.query(
          'SELECT a.id, m.category_id FROM assets a JOIN asset_category_set_members m ON m.set_id = a.category_set_id ' +
            'ORDER BY a.id, m.category_id',
        )
      ).map((row: Record<string, unknown>) => `${String(row.id)}:${String(row.category_id)}`);
    const links = async () =>
      (
        await db.query('SELECT asset_id, category_id FROM asset_categories ORDER BY asset_id, category_id')
      ).map((row: Record<string, unknown>) => `${String(row.asset_id)}:${String(row.category_id)}`);
    expect(await categorySets()).toEqual(await links());
    expect((await links()).length).toBeGreaterThan(0);
    const before = await snapshot();
    const facetsBefore = await facetSnapshot();
    expect(facetsBefore.length).toBeGreaterThan(0);
    // Wrong counts, and assets that no longer name their set of levels (hidden from viewers who see them
    // through their levels): the job recounts both, and the facet tallies.
    await db.query('UPDATE asset_tallies SET assets = assets + 5');
    await db.query('UPDATE asset_year_tallies SET assets = assets + 3');
    await db.query('DELETE FROM asset_category_tallies');
    await db.query('UPDATE asset_type_tallies SET assets = assets + 2');
    await db.query('UPDATE assets SET level_set_id = NULL, category_set_id = NULL');
    const job = t.app.get(JobRegistry).get('rebuild-search-index');
    await job?.run({
      dryRun: false,
      summary: { examined: 0, changed: 0, failed: 0, details: [] },
      note: () => undefined,
      checkpoint: () => Promise.resolve(),
    } as never);
    expect(await snapshot()).toEqual(before);
    expect(await facetSnapshot()).toEqual(facetsBefore);
    expect(await categorySets()).toEqual(await links());
    await expectTalliesExact();
  });
});
