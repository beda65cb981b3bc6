import { Injectable } from '@nestjs/common';
import { JobContext, MaintenanceJob, walkInIdOrder } from '@dam/jobs';
import { AssetWritesRepository } from './asset-writes.repository';
import { AssetTalliesRepository } from './queries/asset-tallies.repository';

/** Assets rebuilt per transaction; the run checkpoints between batches. */
const BATCH = 100;

/**
 * `rebuild-search-index`: rebuilds `asset_search_tokens` and the sort copies (numbers, texts) from
 * `asset_attribute_values`, a batch of assets per transaction, in id order, then `asset_tallies` from the
 * assets. Idempotent: killed mid-way, the next run simply rebuilds everything again. Never deletes an
 * asset or an attribute value, only index rows it rewrites at once. A dry run counts the assets.
 */
@Injectable()
export class RebuildSearchIndexJob extends MaintenanceJob {
  readonly name = 'rebuild-search-index';
  readonly defaultCron = '0 4 * * 0';
  readonly description = 'Rebuilds the search index (tokens and sort copies) from the attribute values';

  constructor(
    private readonly writes: AssetWritesRepository,
    private readonly tallies: AssetTalliesRepository,
  ) {
    super();
  }

  async run(context: JobContext): Promise<void> {
    await reindexWalk(context, this.writes, (afterId, limit) => this.writes.assetIdsAfter(afterId, limit));
    // The counts per set of levels and state, recomputed the same way (they should not have drifted).
    if (!context.dryRun) await this.tallies.rebuild();
    context.note(
      context.dryRun
        ? `${context.summary.examined} assets would be reindexed`
        : `reindexed ${context.summary.changed} assets`,
    );
  }
}

/**
 * Rebuilds the search index of the assets `next` walks (ids ascending after `afterId`), BATCH per
 * transaction, counting them in the run's summary; a dry run only counts. Shared by the jobs that
 * reindex (all assets, or those of retyped attributes).
 */
export function reindexWalk(
  context: JobContext,
  writes: AssetWritesRepository,
  next: (afterId: number, limit: number) => Promise<number[]>,
): Promise<void> {
  return walkInIdOrder(
    context,
    BATCH,
    next,
    (id) => id,
    async (ids) => {
      context.summary.examined += ids.length;
      if (context.dryRun) return;
      await writes.rebuildSearchIndex(ids);
      context.summary.changed += ids.length;
    },
  );
}
