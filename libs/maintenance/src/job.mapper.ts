import { Injectable } from '@nestjs/common';
import { UrlService, xmlMapping } from '@dam/http';
import { JobRun, JobRunStatus, JobStatus } from '@dam/jobs';

/** `GET .../runs/{runId}` (DESIGN §10): one run of a maintenance job, with absolute URLs. */
export interface JobRunRepresentation {
  id: number;
  job: string;
  status: JobRunStatus;
  dryRun: boolean;
  /** `schedule` or `manual`. */
  trigger: string;
  queuedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  summary: { examined: number; changed: number; reported: number; details: string[] };
  error: string | null;
  url: string;
  jobUrl: string;
}

/** An item of `GET /rest/admin/jobs`. */
export interface JobRepresentation extends Omit<JobStatus, 'lastRun' | 'nextRunAt'> {
  lastRun: JobRunRepresentation | null;
  nextRunAt: string | null;
  url: string;
  runsUrl: string;
}

/** XML (DESIGN §3): `<job>` in `<jobs>`, `<jobRun>` (alone or in `<jobRuns>`); details are `<detail>`s. */
export const JOB_RUN_XML = xmlMapping('jobRun', { details: 'detail' });
export const JOB_XML = xmlMapping('job', { details: 'detail' });

@Injectable()
export class JobMapper {
  constructor(private readonly urls: UrlService) {}

  jobUrl(name: string): string {
    return this.urls.rest('admin', 'jobs', name);
  }

  runsUrl(name: string): string {
    return this.urls.rest('admin', 'jobs', name, 'runs');
  }

  runUrl(name: string, runId: number): string {
    return this.urls.rest('admin', 'jobs', name, 'runs', runId);
  }

  toJob(status: JobStatus): JobRepresentation {
    return {
      name: status.name,
      description: status.description,
      schedule: status.schedule,
      enabled: status.enabled,
      scheduledHere: status.scheduledHere,
      running: status.running,
      lastRun: status.lastRun === null ? null : this.toRun(status.lastRun),
      nextRunAt: status.nextRunAt?.toISOString() ?? null,
      url: this.jobUrl(status.name),
      runsUrl: this.runsUrl(status.name),
    };
  }

  toRun(run: JobRun): JobRunRepresentation {
    const summary = run.summary ?? { examined: 0, changed: 0, reported: 0, details: [] };
    return {
      id: run.id,
      job: run.job,
      status: run.status,
      dryRun: run.dryRun,
      trigger: run.trigger,
      queuedAt: run.queuedAt.toISOString(),
      startedAt: run.startedAt?.toISOString() ?? null,
      finishedAt: run.finishedAt?.toISOString() ?? null,
      summary: {
        examined: summary.examined,
        changed: summary.changed,
        reported: summary.reported,
        details: summary.details,
      },
      error: run.error,
      url: this.runUrl(run.job, run.id),
      jobUrl: this.jobUrl(run.job),
    };
  }
}
