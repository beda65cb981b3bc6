import { AppConfig } from '@dam/core';
import { cronVariable, describeSchedule, resolveSchedule, slotOf } from './job-schedule';

describe('job schedules', () => {
  const job = (extra: { intervalSeconds?: number } = {}) => ({
    name: 'verify-integrity',
    defaultCron: '0 * * * *',
    ...extra,
  });

  it('names the variable in upper snake case', () => {
    expect(cronVariable('verify-integrity')).toBe('DAM_JOB_VERIFY_INTEGRITY_CRON');
    expect(cronVariable('purge-temp-files')).toBe('DAM_JOB_PURGE_TEMP_FILES_CRON');
  });

  it.each([
    [{}, {}, 'cron', '0 * * * *'],
    [{}, { VERIFY_INTEGRITY: '*/5 * * * *' }, 'cron', '*/5 * * * *'],
    [{}, { VERIFY_INTEGRITY: 'off' }, 'off', 'off'],
    [{ intervalSeconds: 30 }, {}, 'interval', 'every 30 s'],
    [{ intervalSeconds: 30 }, { VERIFY_INTEGRITY: '0 0 * * *' }, 'cron', '0 0 * * *'],
    [{ intervalSeconds: 30 }, { VERIFY_INTEGRITY: 'off' }, 'off', 'off'],
  ])('job %j with %j: %s %s', (extra, crons, kind, shown) => {
    const schedule = resolveSchedule(job(extra), { jobCrons: crons });
    expect(schedule.kind).toBe(kind);
    expect(describeSchedule(schedule)).toBe(shown);
  });

  it('gives every instance the same moment despite timer jitter', () => {
    const interval = resolveSchedule(job({ intervalSeconds: 2 }), { jobCrons: {} });
    expect(slotOf(interval, 10_000 - 40)).toBe(10_000);
    expect(slotOf(interval, 10_000 + 300)).toBe(10_000);
    const cron = resolveSchedule(job(), { jobCrons: {} });
    expect(slotOf(cron, 3_600_000 + 12)).toBe(3_600_000);
  });

  it('refuses a bad DAM_JOB_<NAME>_CRON at boot, naming the variable', () => {
    expect(() => AppConfig.fromEnv({ DAM_JOB_VERIFY_INTEGRITY_CRON: 'every hour' })).toThrow(
      /DAM_JOB_VERIFY_INTEGRITY_CRON/,
    );
    expect(() => AppConfig.fromEnv({ DAM_JOB_VERIFY_INTEGRITY_CRON: '61 * * * *' })).toThrow(
      /DAM_JOB_VERIFY_INTEGRITY_CRON/,
    );
    expect(AppConfig.fromEnv({ DAM_JOB_VERIFY_INTEGRITY_CRON: 'OFF' }).jobCrons).toEqual({
      VERIFY_INTEGRITY: 'off',
    });
    expect(AppConfig.fromEnv({}).tempFilePurgeIntervalSeconds).toBeUndefined();
  });
});
