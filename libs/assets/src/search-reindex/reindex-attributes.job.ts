import { Injectable } from '@nestjs/common';
import { JobContext, MaintenanceJob } from '@dam/jobs';
import { AssetWritesRepository } from '../asset-writes.repository';
import { reindexWalk } from '../rebuild-search-index.job';
import { ReindexRequestsRepository } from './reindex-requests.repository';

/**
 * `reindex-attributes`: rebuilds the search index (tokens, sort copies, word tallies) of the assets
 * holding a value of each attribute whose type changed (`search_reindex_attributes`), a batch per
 * transaction in id order, until no request is left (a change made during the run is worked off by it).
 * Started after every change of type (AttributeTypeChanges); the schedule only picks up a request whose
 * start was lost (a process that stopped right after the change). Idempotent.
 */
@Injectable()
export class ReindexAttributesJob extends MaintenanceJob {
  readonly name = 'reindex-attributes';
  readonly defaultCron = '37 * * * *';
  readonly description = 'Rebuilds the search index of the values of attributes whose type changed';

  constructor(
    private readonly requests: ReindexRequestsRepository,
    private readonly writes: AssetWritesRepository,
  ) {
    super();
  }

  async run(context: JobContext): Promise<void> {
    let attributes = 0;
    for (;;) {
      const pending = await this.requests.pending();
      if (pending.length === 0) break;
      for (const request of pending) {
        await reindexWalk(context, this.writes, (afterId, limit) =>
          this.requests.assetIdsWith(request.attributeId, afterId, limit),
        );
        if (!context.dryRun) await this.requests.done(request);
        attributes++;
      }
      if (context.dryRun) break;
    }
    context.note(
      context.dryRun
        ? `${context.summary.examined} assets of ${attributes} attributes would be reindexed`
        : `reindexed ${context.summary.changed} assets of ${attributes} attributes`,
    );
  }
}
