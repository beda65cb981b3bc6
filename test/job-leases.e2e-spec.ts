import { LeaseService } from '@dam/jobs';
import { DataSource } from 'typeorm';
import { TestApp } from './helpers/test-app';

/** Leases keep a scheduled job to one instance among several sharing a database. */
describe('job leases', () => {
  let t: TestApp;
  let dataSource: DataSource;
  const instance = (): LeaseService => new LeaseService(dataSource, t.config);

  beforeAll(async () => {
    t = await TestApp.start({ env: { DAM_JOBS_ENABLED: 'true' } });
    dataSource = t.app.get(DataSource);
  });
  afterAll(() => t?.close());

  it('gives a lease to one instance until it expires or is released', async () => {
    const [a, b] = [instance(), instance()];
    expect(await a.tryAcquire('job-1', 60_000)).toBe(true);
    expect(await b.tryAcquire('job-1', 60_000)).toBe(false);
    expect(await a.tryAcquire('job-1', 60_000)).toBe(true); // renewing one's own lease
    expect(await b.tryAcquire('job-1', 60_000, new Date(Date.now() + 120_000))).toBe(true); // a's lease expired
    expect(await a.tryAcquire('job-1', 60_000)).toBe(false);
    await b.release('job-1');
    expect(await a.tryAcquire('job-1', 60_000)).toBe(true);
  });

  it('lets exactly one of many concurrent instances win', async () => {
    const contenders = Array.from({ length: 10 }, instance);
    const results = await Promise.all(contenders.map((lease) => lease.tryAcquire('job-2', 60_000)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('runs a job on only one instance when two fire at once', async () => {
    let runs = 0;
    const job = async (): Promise<void> => {
      runs += 1;
      await new Promise((resolve) => setTimeout(resolve, 200));
    };
    const ran = await Promise.all(
      [instance(), instance()].map((lease) => lease.runExclusive('job-3', 60_000, job)),
    );
    expect(ran.filter(Boolean)).toHaveLength(1);
    expect(runs).toBe(1);
  });

  it('does not run jobs where DAM_JOBS_ENABLED is false', async () => {
    const disabled = new LeaseService(dataSource, { ...t.config, jobsEnabled: false } as typeof t.config);
    let runs = 0;
    expect(await disabled.runExclusive('job-4', 60_000, async () => void (runs += 1))).toBe(false);
    expect(runs).toBe(0);
  });
});
