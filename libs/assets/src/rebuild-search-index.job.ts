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
    const next = (afterId: number, limit: number) => this.writes.assetIdsAfter(afterId, limit);
    await walkInIdOrder(
      context,
      BATCH,
      next,
      (id) => id,
      async (ids) => {
        context.summary.examined += ids.length;
        if (context.dryRun) return;
        await this.writes.rebuildSearchIndex(ids);
        context.summary.changed += ids.length;
      },
    );
    // The counts per set of levels and state, recomputed the same way (they should not have drifted).
    if (!context.dryRun) await this.tallies.rebuild();
    context.note(
      context.dryRun
        ? `${context.summary.examined} assets would be reindexed`
        : `reindexed ${context.summary.changed} assets`,
    );
  }
}
