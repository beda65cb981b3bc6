import { DataSource } from 'typeorm';
import { insertAccessLevel } from './helpers/asset-permission-fixtures';
import { bearerRequests } from './helpers/bearer-requests';
import { TestApp } from './helpers/test-app';

interface AuditEntry {
  target: string | null;
  changes: Record<string, { before: unknown; after: unknown }> | null;
}

/**
 * A custom attribute's type changes (`PUT /rest/attributes/{id}` with another `typeId`): its values'
 * tokens and sort copies depend on the type, so the change is recorded as `attribute.updated` (audited,
 * with the type's before and after), a reindex of the attribute is requested in the same transaction,
 * and the `reindex-attributes` job started after the commit rebuilds the index of the assets holding it:
 * sorting by it then follows the new type. Attribute writes are audited too.
 */
describe('an attribute whose type changes: its values are reindexed', () => {
  let t: TestApp;
  const api = bearerRequests(() => t);

  beforeAll(async () => {
    t = await TestApp.start();
  });

  afterAll(async () => {
    await t?.close();
  });

  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('sorts by the new type once the reindex has run, and records the change', async () => {
    const level = await insertAccessLevel(t);
    const attribute = (
      await api.post('/rest/attributes', t.adminToken, { label: 'Score', typeId: 1 }).expect(201)
    ).body.id as number;
    const ids: Record<string, number> = {};
    for (const value of ['10', '9', '100']) {
      const created = await api
        .post('/rest/assets', t.adminToken, { accessLevels: [{ id: level }] })
        .expect(201);
      ids[value] = created.body.id as number;
      await api
        .put(`/rest/assets/${ids[value]}`, t.adminToken, { attributes: [{ id: String(attribute), value }] })
        .expect(200);
    }
    const sorted = async (): Promise<number[]> =>
      (
        (
          await api
            .get(
              `/rest/asset-search?permissionCategoryForm.categoryIds=${level}&sortAttributeId=${attribute}`,
              t.adminToken,
            )
            .expect(200)
        ).body as Array<{ id: number }>
      ).map((summary) => summary.id);
    // Text: "10" < "100" < "9".
    expect(await sorted()).toEqual([ids['10'], ids['100'], ids['9']]);

    await api.put(`/rest/attributes/${attribute}`, t.adminToken, { typeId: 8 }).expect(200);
    const numeric = [ids['9'], ids['10'], ids['100']];
    const deadline = Date.now() + 20_000;
    let order = await sorted();
    while (JSON.stringify(order) !== JSON.stringify(numeric) && Date.now() < deadline) {
      await sleep(100);
      order = await sorted();
    }
    expect(order).toEqual(numeric);

    // The run that did it (its row is written when it ends, after the last batch), and no request left.
    type Run = { status: string; summary: { examined: number; changed: number } };
    const newestRun = async (): Promise<Run | undefined> =>
      (
        (await api.get('/rest/admin/jobs/reindex-attributes/runs', t.adminToken).expect(200)).body as Run[]
      )[0];
    const ended = Date.now() + 20_000;
    let run = await newestRun();
    while ((run === undefined || ['queued', 'running'].includes(run.status)) && Date.now() < ended) {
      await sleep(100);
      run = await newestRun();
    }
    expect(run).toMatchObject({ status: 'succeeded', summary: { examined: 3, changed: 3 } });
    const left = await t.app.get(DataSource).query('SELECT attribute_id FROM search_reindex_attributes');
    expect(left).toEqual([]);

    const audit = async (action: string) =>
      (
        (await api.get(`/rest/admin/audit?action=${action}&pageSize=1000`, t.adminToken).expect(200))
          .body as AuditEntry[]
      ).filter((entry) => entry.target === t.rest(`attributes/${attribute}`));
    expect((await audit('attribute.created'))[0].changes).toMatchObject({
      label: { before: null, after: 'Score' },
      typeId: { before: null, after: 1 },
    });
    expect((await audit('attribute.updated'))[0].changes).toEqual({ typeId: { before: 1, after: 8 } });
  });

  it('requests nothing when the type stays, and the request goes with a deleted attribute', async () => {
    const db = t.app.get(DataSource);
    const attribute = (
      await api.post('/rest/attributes', t.adminToken, { label: 'Plain', typeId: 1 }).expect(201)
    ).body.id as number;
    await api.put(`/rest/attributes/${attribute}`, t.adminToken, { label: 'Plainer', typeId: 1 }).expect(200);
    expect(await db.query('SELECT attribute_id FROM search_reindex_attributes')).toEqual([]);
    // A request still pending when its attribute is deleted goes with it.
    await db.query('INSERT INTO search_reindex_attributes (attribute_id, requests) VALUES (?, 1)', [
      attribute,
    ]);
    await api.delete(`/rest/attributes/${attribute}`, t.adminToken).expect(204);
    expect(await db.query('SELECT attribute_id FROM search_reindex_attributes')).toEqual([]);
    const deleted = (
      (await api.get('/rest/admin/audit?action=attribute.deleted&pageSize=1000', t.adminToken).expect(200))
        .body as AuditEntry[]
    ).filter((entry) => entry.target === t.rest(`attributes/${attribute}`));
    expect(deleted).toHaveLength(1);
  });
});
