import { EntityManager } from 'typeorm';

/**
 * SQLite: makes sure `sqlite_stat1`, the planner's statistics, exists, so that a table's owner can write
 * rows of its own there (assets' planner statistics). Only ANALYZE creates it (an application may not):
 * it runs on `cache_generations`, a small table of this lib (as it did when this lived beside the migrations).
 */
export async function ensureSqliteStatTable(manager: EntityManager): Promise<void> {
  const [present]: Array<{ n: number }> = await manager.query(
    "SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_stat1'",
  );
  if (Number(present?.n ?? 0) === 0) await manager.query('ANALYZE "cache_generations"');
}
