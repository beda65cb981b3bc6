import { JobContext } from './maintenance-job';

/**
 * Deletes in batches of `batch` until a batch deletes fewer (`deleteBatch` returns how many it deleted),
 * counting them examined and changed, with a checkpoint between batches. Returns how many were deleted.
 */
export async function deleteInBatches(
  context: JobContext,
  batch: number,
  deleteBatch: (limit: number) => Promise<number>,
): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await deleteBatch(batch);
    total += deleted;
    context.summary.examined += deleted;
    context.summary.changed += deleted;
    if (deleted < batch) return total;
    await context.checkpoint();
  }
}

/**
 * Walks rows in id order, `batch` at a time (`next(afterId, limit)` answers the rows after `afterId`), hands
 * each batch to `handle` and checkpoints after it, until `next` answers none.
 */
export async function walkInIdOrder<T>(
  context: JobContext,
  batch: number,
  next: (afterId: number, limit: number) => Promise<T[]>,
  idOf: (row: T) => number,
  handle: (rows: T[]) => Promise<void>,
): Promise<void> {
  for (let afterId = 0; ;) {
    const rows = await next(afterId, batch);
    if (rows.length === 0) return;
    afterId = idOf(rows[rows.length - 1]);
    await handle(rows);
    await context.checkpoint();
  }
}
