import { StateConflict, UnknownResource } from '@dam/errors';

/** 404: no job of that name is registered. */
export class UnknownJob extends UnknownResource {
  constructor(name: string) {
    super(`there is no job ${name}`);
  }
}

/** 409: a run of the job is going (its lease is held, or a run row is still open). */
export class JobAlreadyRunning extends StateConflict {
  constructor(name: string) {
    super(`job ${name} is already running`);
  }
}

/** 404: no run of that id for that job. */
export class UnknownJobRun extends UnknownResource {
  constructor(name: string, runId: string) {
    super(`job ${name} has no run ${runId}`);
  }
}

/** An error's message, for logs and a failed run's record. */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
