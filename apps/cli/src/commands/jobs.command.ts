import { JobRun, JobRunner, JobStatus } from '@dam/jobs';
import { CliCommand, CommandError, parseCommandLine } from './command';

/** A run as `--json` prints it (the API's representation without URLs). */
function runJson(run: JobRun): object {
  return {
    id: run.id,
    job: run.job,
    status: run.status,
    dryRun: run.dryRun,
    trigger: run.trigger,
    startedAt: run.startedAt?.toISOString() ?? null,
    finishedAt: run.finishedAt?.toISOString() ?? null,
    summary: run.summary ?? { examined: 0, changed: 0, reported: 0, details: [] },
    error: run.error,
  };
}

function counts(run: JobRun): string {
  const summary = run.summary ?? { examined: 0, changed: 0, reported: 0 };
  return `examined ${summary.examined}, changed ${summary.changed}, reported ${summary.reported}`;
}

function lastRunText(run: JobRun | null): string {
  if (run === null) return 'never run';
  const at = (run.finishedAt ?? run.startedAt ?? run.queuedAt).toISOString();
  return `last ${run.status}${run.dryRun ? ' (dry run)' : ''} ${at}`;
}

/** `jobs:list [--json]`: every maintenance job, its schedule, its last run and its next moment. */
export const jobsListCommand: CliCommand = {
  name: 'jobs:list',
  synopsis: '[--json]',
  summary: 'list the maintenance jobs with their schedule, last run and next run',
  async run(args, { jobsContext, print, json }) {
    parseCommandLine(args, {}, { min: 0, max: 0 });
    const app = await jobsContext();
    const jobs: JobStatus[] = await app.get(JobRunner).list();
    if (json) {
      print(
        JSON.stringify(
          jobs.map((job) => ({
            name: job.name,
            description: job.description,
            schedule: job.schedule,
            enabled: job.enabled,
            running: job.running,
            lastRun: job.lastRun === null ? null : runJson(job.lastRun),
            nextRunAt: job.nextRunAt?.toISOString() ?? null,
          })),
          null,
          2,
        ),
      );
      return;
    }
    const width = Math.max(0, ...jobs.map((job) => job.name.length));
    const scheduleWidth = Math.max(0, ...jobs.map((job) => job.schedule.length));
    for (const job of jobs) {
      const next = job.nextRunAt === null ? 'not scheduled' : `next ${job.nextRunAt.toISOString()}`;
      print(
        [
          job.name.padEnd(width),
          job.schedule.padEnd(scheduleWidth),
          job.running ? 'running' : lastRunText(job.lastRun),
          next,
        ].join('  '),
      );
    }
  },
};

/**
 * `jobs:run NAME [--dry-run] [--wait] [--json]`: runs a job now, in this process (which takes the job's
 * lease like any instance, so it refuses while a run goes on elsewhere), and exits 1 when the run fails.
 * The CLI is the instance running the job, so it stays until the run ends either way; `--wait` prints
 * the finished run with its summary (without it, only the run's id and its outcome).
 */
export const jobsRunCommand: CliCommand = {
  name: 'jobs:run',
  synopsis: 'NAME [--dry-run] [--wait] [--json]',
  summary: 'run a maintenance job now (exit 1 when the run fails)',
  async run(args, { jobsContext, print, json }) {
    const { values, positionals } = parseCommandLine(
      args,
      { 'dry-run': { type: 'boolean' }, wait: { type: 'boolean' } },
      { min: 1, max: 1 },
    );
    const app = await jobsContext();
    const started = await app.get(JobRunner).trigger(positionals[0], values['dry-run'] === true);
    if (!json) {
      print(`run ${started.run.id} of ${started.run.job} started${started.run.dryRun ? ' (dry run)' : ''}`);
    }
    const run = await started.done;
    if (json) print(JSON.stringify(runJson(run), null, 2));
    else if (values.wait === true) {
      print(`run ${run.id} ${run.status}: ${counts(run)}`);
      for (const detail of run.summary?.details ?? []) print(`  ${detail}`);
    } else {
      print(`run ${run.id} ${run.status}`);
    }
    if (run.status !== 'succeeded') {
      throw new CommandError(`run ${run.id} of ${run.job} failed: ${run.error ?? 'unknown error'}`);
    }
  },
};
