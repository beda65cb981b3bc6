import { Injectable } from '@nestjs/common';
import { ActorUser, requireAdmin } from '@dam/access';
import { Paging } from '@dam/http';
import { JobRun, JobRunner, JobStatus, UnknownJobRun } from '@dam/jobs';

/** Runs kept per job is 100, so an unpaged list is the whole history. */
const UNPAGED_LIMIT = 100;

/** The admin jobs API (DESIGN §10): admins and the application user only. */
@Injectable()
export class JobsService {
  constructor(private readonly runner: JobRunner) {}

  async list(actor: ActorUser): Promise<JobStatus[]> {
    requireAdmin(actor, 'see maintenance jobs');
    return this.runner.list();
  }

  /** Starts a run; 404 for an unknown job, 409 while one is going. Returns the queued run. */
  async trigger(actor: ActorUser, name: string, dryRun: boolean): Promise<JobRun> {
    requireAdmin(actor, 'run maintenance jobs');
    const started = await this.runner.trigger(name, dryRun);
    // The run goes on after the answer; its failures are recorded in its row and logged.
    started.done.catch(() => undefined);
    return started.run;
  }

  async runs(
    actor: ActorUser,
    name: string,
    paging: Paging | undefined,
  ): Promise<{ runs: JobRun[]; total: number }> {
    requireAdmin(actor, 'see maintenance jobs');
    return this.runner.runs(name, paging?.offset ?? 0, paging?.pageSize ?? UNPAGED_LIMIT);
  }

  async run(actor: ActorUser, name: string, runId: number): Promise<JobRun> {
    requireAdmin(actor, 'see maintenance jobs');
    const run = await this.runner.run(name, runId);
    if (run === undefined) throw new UnknownJobRun(name, String(runId));
    return run;
  }
}
