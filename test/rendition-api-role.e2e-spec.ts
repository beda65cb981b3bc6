import sharp from 'sharp';
import { bearerRequests, pathOf } from './helpers/bearer-requests';
import { contentRequests, defaultLevelWith } from './helpers/content-fixtures';
import { Grants } from './helpers/grant-fixtures';
import { TestApp } from './helpers/test-app';

/**
 * `regenerate-renditions` in a DAM_ROLE=api process, which makes no renditions (and may have no worker
 * beside it): the run queues what is missing for the workers and ends, reporting the queued files.
 */
describe('regenerate-renditions in an api process', () => {
  let t: TestApp;
  const http = bearerRequests(() => t);
  const { newAsset, upload } = contentRequests(() => t);

  beforeAll(async () => {
    t = await TestApp.start({ env: { DAM_ROLE: 'api' } });
  });
  afterAll(() => t?.close());

  /** Polls a run until it ended, for at most 20 s. */
  async function ended(location: string): Promise<Record<string, unknown>> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const run = (await http.get(pathOf(location), t.adminToken).expect(200)).body as Record<
        string,
        unknown
      >;
      if (run.status === 'succeeded' || run.status === 'failed') return run;
      if (Date.now() > deadline) throw new Error(`${location} is still ${String(run.status)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('queues the missing renditions for the workers and ends, reporting them queued', async () => {
    const { level } = await defaultLevelWith(t, new Grants(t), []);
    const photo = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#3366cc' } })
      .jpeg()
      .toBuffer();
    const asset = await newAsset(level);
    await upload(asset, t.adminToken, photo, 'photo.jpg').expect(200);
    const id = Number(asset.split('/').pop());

    const started = await http
      .post('/rest/admin/jobs/regenerate-renditions/runs', t.adminToken, {})
      .expect(202);
    const run = await ended(started.headers.location as string);
    expect(run).toMatchObject({
      status: 'succeeded',
      summary: {
        examined: 1,
        changed: 0,
        reported: 1,
        details: [`asset ${id}: queued for a rendition worker (missing thumbnail, preview, display, large)`],
      },
    });
    // Still for a worker to make: this process makes none.
    await http.get(`${asset}/thumbnail`, t.adminToken).expect(404);
  });
});
