import { JobContext, JobSummary } from '@dam/jobs';
import { AssetWritesRepository } from '../asset-writes.repository';
import { ReindexAttributesJob } from './reindex-attributes.job';
import { ReindexRequest, ReindexRequestsRepository } from './reindex-requests.repository';

/**
 * The job's loop, with an in-memory request table: a request that comes in while the run works (another
 * change of type) is worked off by the same run, and a request asked again during its own reindex stays
 * for another pass instead of being removed with the older count.
 */
describe('ReindexAttributesJob', () => {
  const ASSETS: Record<number, number[]> = { 1: [10, 11, 12], 2: [11], 3: [] };

  function world() {
    const table = new Map<number, number>([[1, 1]]);
    const rebuilt: number[][] = [];
    let onRebuild: (() => void) | undefined;
    const requests = {
      pending: async (): Promise<ReindexRequest[]> =>
        [...table].map(([attributeId, count]) => ({ attributeId, requests: count })),
      done: async ({ attributeId, requests: count }: ReindexRequest) => {
        if (table.get(attributeId) === count) table.delete(attributeId);
      },
      assetIdsWith: async (attributeId: number, afterId: number, limit: number) =>
        (ASSETS[attributeId] ?? []).filter((id) => id > afterId).slice(0, limit),
    } as unknown as ReindexRequestsRepository;
    const writes = {
      rebuildSearchIndex: async (ids: number[]) => {
        rebuilt.push(ids);
        const hook = onRebuild;
        onRebuild = undefined;
        hook?.();
      },
    } as unknown as AssetWritesRepository;
    const summary: JobSummary = { examined: 0, changed: 0, reported: 0, details: [] };
    const context = (dryRun = false): JobContext => ({
      dryRun,
      summary,
      note: (detail) => summary.details.push(detail),
      checkpoint: async () => undefined,
    });
    return {
      table,
      rebuilt,
      summary,
      context,
      job: new ReindexAttributesJob(requests, writes),
      during: (hook: () => void) => (onRebuild = hook),
    };
  }

  it('works off a request that comes in during the run', async () => {
    const w = world();
    w.during(() => w.table.set(2, 1));
    await w.job.run(w.context());
    expect(w.rebuilt).toEqual([[10, 11, 12], [11]]);
    expect([...w.table]).toEqual([]);
    expect(w.summary).toMatchObject({ examined: 4, changed: 4 });
  });

  it('keeps a request asked again while it was worked off, and works it off again', async () => {
    const w = world();
    w.during(() => w.table.set(1, 2));
    await w.job.run(w.context());
    expect(w.rebuilt).toEqual([
      [10, 11, 12],
      [10, 11, 12],
    ]);
    expect([...w.table]).toEqual([]);
  });

  it('changes nothing on a dry run, and counts', async () => {
    const w = world();
    await w.job.run(w.context(true));
    expect(w.rebuilt).toEqual([]);
    expect([...w.table]).toEqual([[1, 1]]);
    expect(w.summary.examined).toBe(3);
  });
});
