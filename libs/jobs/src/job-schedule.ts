import { CronTime } from 'cron';
import { AppConfig } from '@dam/core';
import type { MaintenanceJob } from './maintenance-job';

/** When a job runs by itself: a cron expression, a fixed period, or never (`off`). */
export type JobSchedule =
  | { kind: 'cron'; expression: string; source: string }
  | { kind: 'interval'; seconds: number; source: string }
  | { kind: 'off'; source: string };

/** `verify-integrity` → `DAM_JOB_VERIFY_INTEGRITY_CRON`. */
export function cronVariable(jobName: string): string {
  return `DAM_JOB_${cronKey(jobName)}_CRON`;
}

/** `verify-integrity` → `VERIFY_INTEGRITY`. */
export function cronKey(jobName: string): string {
  return jobName.toUpperCase().replace(/[^A-Z0-9]+/g, '_');
}

/**
 * The schedule of `job`: DAM_JOB_<NAME>_CRON when set (`off` disables it), else the job's fixed period
 * (`intervalSeconds`, e.g. DAM_TEMP_FILE_PURGE_INTERVAL_SECONDS) when it has one, else its defaultCron.
 */
export function resolveSchedule(
  job: Pick<MaintenanceJob, 'name' | 'defaultCron' | 'intervalSeconds'>,
  config: Pick<AppConfig, 'jobCrons'>,
): JobSchedule {
  const variable = cronVariable(job.name);
  const configured = config.jobCrons[cronKey(job.name)];
  if (configured === 'off') return { kind: 'off', source: variable };
  if (configured !== undefined) return { kind: 'cron', expression: configured, source: variable };
  const seconds = job.intervalSeconds;
  if (seconds !== undefined) return { kind: 'interval', seconds, source: 'interval' };
  if (job.defaultCron.trim().toLowerCase() === 'off') return { kind: 'off', source: 'default' };
  return { kind: 'cron', expression: job.defaultCron, source: 'default' };
}

/** How `GET /rest/admin/jobs` and `jobs:list` show a schedule: the cron expression, `every N s` or `off`. */
export function describeSchedule(schedule: JobSchedule): string {
  switch (schedule.kind) {
    case 'cron':
      return schedule.expression;
    case 'interval':
      return `every ${schedule.seconds} s`;
    case 'off':
      return 'off';
  }
}

/**
 * The scheduled moment a firing at `now` is for, identical on every instance: the fixed period's multiple
 * (timers are aligned to it), or the cron tick's second. Rounded to the nearest, so timer jitter either
 * way lands on the same moment.
 */
export function slotOf(schedule: JobSchedule, now: number): number {
  const unit = schedule.kind === 'interval' ? schedule.seconds * 1000 : 1000;
  return Math.round(now / unit) * unit;
}

/** The next moment `schedule` fires after `now`, or null when it is off. */
export function nextMoment(schedule: JobSchedule, now: Date): Date | null {
  switch (schedule.kind) {
    case 'off':
      return null;
    case 'interval': {
      const period = schedule.seconds * 1000;
      return new Date(Math.floor(now.getTime() / period + 1) * period);
    }
    case 'cron':
      return new CronTime(schedule.expression).sendAt().toJSDate();
  }
}
