import { SchedulerRegistry } from '@nestjs/schedule';
import { CronJob } from 'cron';
import type { JobSchedule } from './job-schedule';

/**
 * Arms the timer of a schedule that is not `off` in @nestjs/schedule's registry under `key`: a CronJob, or
 * for a fixed period a timeout at each multiple of it (since the epoch), the same moments on every instance.
 * `fire` gets the moment (a period's) or nothing (cron: now). Returns what stops it.
 */
export function armSchedule(
  schedules: SchedulerRegistry,
  key: string,
  schedule: Exclude<JobSchedule, { kind: 'off' }>,
  on: { fire: (moment?: number) => void; stopping: () => boolean },
): () => void {
  if (schedule.kind === 'cron') {
    const cron = CronJob.from({
      cronTime: schedule.expression,
      onTick: () => on.fire(),
      start: false,
    });
    if (schedules.doesExist('cron', key)) schedules.deleteCronJob(key);
    schedules.addCronJob(key, cron);
    cron.start();
    return () => void cron.stop();
  }
  const period = schedule.seconds * 1000;
  const arm = (): void => {
    if (on.stopping()) return;
    const now = Date.now();
    const next = Math.floor(now / period + 1) * period;
    const timer = setTimeout(() => {
      if (schedules.doesExist('timeout', key)) schedules.deleteTimeout(key);
      on.fire(next);
      arm();
    }, next - now);
    if (schedules.doesExist('timeout', key)) schedules.deleteTimeout(key);
    schedules.addTimeout(key, timer);
  };
  arm();
  return () => {
    if (schedules.doesExist('timeout', key)) schedules.deleteTimeout(key);
  };
}
