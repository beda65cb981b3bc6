/**
 * The API (as apps/api/src/main.ts) with two extra maintenance jobs, for specs that run instances as
 * processes: `test-tick` (quick; scheduled by DAM_JOB_TEST_TICK_CRON) and `test-slow` (runs until the file
 * SLOW_JOB_RELEASE_FILE exists, checkpointing meanwhile).
 */
import '../../apps/api/src/register-paths';
import { existsSync } from 'node:fs';
import { AppConfig } from '@dam/core';
import { JobContext, JobRegistry, JobRunner, MaintenanceJob } from '@dam/jobs';
import { createApp } from '../../apps/api/src/create-app';

class TickJob extends MaintenanceJob {
  readonly name = 'test-tick';
  readonly defaultCron = 'off';
  readonly description = 'does nothing, quickly';
  async run(context: JobContext): Promise<void> {
    context.summary.examined = 1;
  }
}

class SlowJob extends MaintenanceJob {
  readonly name = 'test-slow';
  readonly defaultCron = 'off';
  readonly description = 'runs until SLOW_JOB_RELEASE_FILE exists';
  async run(context: JobContext): Promise<void> {
    const file = process.env.SLOW_JOB_RELEASE_FILE ?? '';
    while (!existsSync(file)) {
      await context.checkpoint();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    context.summary.examined = 1;
  }
}

async function main(): Promise<void> {
  const config = AppConfig.fromEnv();
  const app = await createApp(config);
  const registry = app.get(JobRegistry);
  // Registered after bootstrap (createApp initialises the app), so scheduled here.
  for (const job of [new TickJob(), new SlowJob()]) {
    registry.register(job);
    app.get(JobRunner).scheduleJob(job);
  }
  await app.listen(config.port);
}

void main();
