import { accessLevelRequests } from '../../../test/helpers/access-level-requests';
import { bearerRequests, pathOf } from '../../../test/helpers/bearer-requests';
import { MATRIX } from '../../../test/helpers/databases';
import { TestApp, TestUser } from '../../../test/helpers/test-app';
import { eventually, WebhookReceiver } from '../../../test/helpers/webhook-receiver';
import { RightsExpiryModule } from '../src';

jest.setTimeout(120_000);

/**
 * The worked extension (docs/extending.md) booted with the whole API: its own table, a listener of
 * `asset.*`, the `expire-rights` job (platform's JobRegistry/JobRunner) and its admin endpoint; its
 * `rights.expired` events reach webhooks like the core's.
 */
describe(`examples/rights-expiry (${MATRIX})`, () => {
  let t: TestApp;
  let user: TestUser;
  let levelId: number;
  let receiver: WebhookReceiver;
  const api = bearerRequests(() => t);

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    t = await TestApp.start({
      env: { DAM_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', DAM_WEBHOOK_POLL_MS: '100' },
      extraModules: [RightsExpiryModule.forRoot({ defaultTermDays: 30 })],
    });
    user = await t.createUser();
    levelId = (await accessLevelRequests(() => t).createLevel(`rights-${Date.now()}`)).id;
  });

  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  const createAsset = async (): Promise<{ id: number; url: string }> => {
    const response = await api
      .post('/rest/assets', t.adminToken, { accessLevels: [{ id: levelId }] })
      .expect(201);
    return { id: response.body.id as number, url: response.body.url as string };
  };

  const rightsOf = (assetId: number) => api.get(`/rest/admin/rights-expiry/${assetId}`, t.adminToken);

  it('gives a new asset the default term (listening to asset.created) and forgets a deleted one', async () => {
    const before = Date.now();
    const asset = await createAsset();
    const rights = await eventually(async () => {
      const response = await rightsOf(asset.id);
      return response.status === 200 ? response.body : undefined;
    });
    expect(rights).toMatchObject({ assetId: asset.id, assetUrl: asset.url, expired: false, expiredAt: null });
    const term = new Date(rights.expiresAt as string).getTime() - before;
    expect(term).toBeGreaterThan(29.9 * 86_400_000);
    expect(term).toBeLessThan(30.1 * 86_400_000);

    await api.delete(pathOf(asset.url), t.adminToken).expect(204);
    await eventually(async () => ((await rightsOf(asset.id)).status === 404 ? true : undefined));
  });

  it('expires rights with its scheduled job, which records rights.expired for webhooks', async () => {
    const hook = await api
      .post('/rest/admin/webhooks', t.adminToken, { url: receiver.url, events: ['rights.*'] })
      .expect(201);
    const asset = await createAsset();
    const past = new Date(Date.now() - 60_000).toISOString();
    const set = await api
      .put(`/rest/admin/rights-expiry/${asset.id}`, t.adminToken, { expiresAt: past })
      .expect(200);
    expect(set.body).toMatchObject({ assetId: asset.id, expired: false });

    const jobs = await api.get('/rest/admin/jobs', t.adminToken).expect(200);
    expect(jobs.body.map((job: { name: string }) => job.name)).toContain('expire-rights');
    const dry = await api
      .post('/rest/admin/jobs/expire-rights/runs?dryRun=true', t.adminToken, {})
      .expect(202);
    const dryRun = await eventually(async () => {
      const run = await api.get(pathOf(dry.headers.location as string), t.adminToken).expect(200);
      return run.body.status === 'succeeded' ? run.body : undefined;
    });
    expect(dryRun.summary).toMatchObject({ changed: 0 });
    expect((await rightsOf(asset.id)).body.expired).toBe(false);

    const started = await api.post('/rest/admin/jobs/expire-rights/runs', t.adminToken, {}).expect(202);
    const run = await eventually(async () => {
      const response = await api.get(pathOf(started.headers.location as string), t.adminToken).expect(200);
      return response.body.status === 'succeeded' ? response.body : undefined;
    });
    expect(run.summary.changed).toBe(1);
    expect(run.summary.details).toContain(`asset ${asset.id} expired`);
    expect((await rightsOf(asset.id)).body).toMatchObject({ expired: true });

    await eventually(() => (receiver.received.length > 0 ? true : undefined));
    const [delivered] = receiver.verified(hook.body.secret as string);
    // The job ran from an API request, but its payload carries the configured origin, not that request's.
    expect(delivered).toMatchObject({
      type: 'rights.expired',
      data: {
        assetId: asset.id,
        assetUrl: asset.url.replace(t.baseUrl, `http://localhost:${t.config.port}`),
      },
    });

    // A second run finds nothing more to do.
    const again = await api.post('/rest/admin/jobs/expire-rights/runs', t.adminToken, {}).expect(202);
    const second = await eventually(async () => {
      const response = await api.get(pathOf(again.headers.location as string), t.adminToken).expect(200);
      return response.body.status === 'succeeded' ? response.body : undefined;
    });
    expect(second.summary.changed).toBe(0);
  });

  it('keeps its admin endpoint to admins, and checks what it is sent', async () => {
    const asset = await createAsset();
    await api.get('/rest/admin/rights-expiry', user.token).expect(403);
    await api.put(`/rest/admin/rights-expiry/${asset.id}`, user.token, { expiresAt: null }).expect(403);
    await api.put(`/rest/admin/rights-expiry/${asset.id}`, t.adminToken, { expiresAt: 'soon' }).expect(400);
    await api.put('/rest/admin/rights-expiry/999999', t.adminToken, { expiresAt: null }).expect(404);
    const cleared = await api
      .put(`/rest/admin/rights-expiry/${asset.id}`, t.adminToken, { expiresAt: null })
      .expect(200);
    expect(cleared.body).toMatchObject({ expiresAt: null, expired: false });
    const list = await api.get('/rest/admin/rights-expiry', t.adminToken).expect(200);
    expect(list.body.map((entry: { assetId: number }) => entry.assetId)).toContain(asset.id);
    expect(Number(list.headers['x-total-count'])).toBe(list.body.length);
  });
});
