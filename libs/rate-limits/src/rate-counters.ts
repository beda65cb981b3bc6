import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** A counter's window: hits so far, and when the window ends (Unix ms). */
export interface CounterWindow {
  hits: number;
  endsAt: number;
}

interface RawWindow {
  hits: number | string;
  window_ends_at: number | string;
}

const TABLE = 'rate_limit_counters';
/** Windows that ended are deleted at most this often per instance (by whichever hit comes next). */
const PURGE_EVERY_MS = 10 * 60_000;

/**
 * Fixed-window counters in `rate_limit_counters`, shared by every instance on the database: a hit is one
 * atomic upsert (a new window when the key has none or its window ended, else one more hit), so two
 * instances never lose each other's counts. Keys are at most 100 characters; callers hash what they count.
 */
@Injectable()
export class RateCounters {
  private readonly logger = new Logger('RateLimits');
  private purgedAt = Date.now();

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * One more hit on `key`, in its current window or a new one of `windowMs`; the window after it, exactly
   * as this hit left it (concurrent hits each see their own count): one statement with RETURNING on SQLite,
   * a transaction holding the row's lock on MySQL.
   */
  async hit(key: string, windowMs: number, now = Date.now()): Promise<CounterWindow> {
    const parameters = [key, now + windowMs, now, now];
    this.purgeNowAndThen(now);
    if (this.dataSource.options.type === 'better-sqlite3') {
      // Every CASE reads the row as it was: a window that ended restarts at 1.
      const rows = (await this.dataSource.query(
        `INSERT INTO ${TABLE} (counter_key, hits, window_ends_at) VALUES (?, 1, ?)
         ON CONFLICT (counter_key) DO UPDATE SET
           hits = CASE WHEN window_ends_at <= ? THEN 1 ELSE hits + 1 END,
           window_ends_at = CASE WHEN window_ends_at <= ? THEN excluded.window_ends_at ELSE window_ends_at END
         RETURNING hits, window_ends_at`,
        parameters,
      )) as RawWindow[];
      return toWindow(rows[0]);
    }
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.hitInTransaction(key, parameters);
      } catch (error) {
        // Concurrent first hits of one key may deadlock in InnoDB; the loser simply tries again.
        if (attempt >= 5 || !isDeadlock(error)) throw error;
      }
    }
  }

  /**
   * One hit on each of `keys`, as one step: concurrent callers are counted in the same order on every key,
   * so "the hits before mine" names the same callers on each (an attempt is never first on one key and
   * overtaken on another). On MySQL one transaction takes the rows' locks in key order; on SQLite the
   * statements run back to back, as one writer does them.
   */
  async hitAll(keys: string[], windowMs: number, now = Date.now()): Promise<CounterWindow[]> {
    if (this.dataSource.options.type === 'better-sqlite3') {
      return Promise.all(keys.map((key) => this.hit(key, windowMs, now)));
    }
    this.purgeNowAndThen(now);
    const ordered = [...new Set(keys)].sort();
    for (let attempt = 1; ; attempt++) {
      try {
        const windows = await this.dataSource.transaction(async (manager) => {
          const found = new Map<string, CounterWindow>();
          for (const key of ordered) {
            await manager.query(
              `INSERT INTO ${TABLE} (counter_key, hits, window_ends_at) VALUES (?, 1, ?)
               ON DUPLICATE KEY UPDATE hits = IF(window_ends_at <= ?, 1, hits + 1),
                 window_ends_at = IF(window_ends_at <= ?, VALUES(window_ends_at), window_ends_at)`,
              [key, now + windowMs, now, now],
            );
            const rows = (await manager.query(
              `SELECT hits, window_ends_at FROM ${TABLE} WHERE counter_key = ?`,
              [key],
            )) as RawWindow[];
            found.set(key, toWindow(rows[0]));
          }
          return found;
        });
        return keys.map((key) => windows.get(key) as CounterWindow);
      } catch (error) {
        if (attempt >= 5 || !isDeadlock(error)) throw error;
      }
    }
  }

  private hitInTransaction(key: string, parameters: unknown[]): Promise<CounterWindow> {
    return this.dataSource.transaction(async (manager) => {
      // MySQL assigns left to right: `hits` is decided on the old window_ends_at, which is set after it.
      await manager.query(
        `INSERT INTO ${TABLE} (counter_key, hits, window_ends_at) VALUES (?, 1, ?)
         ON DUPLICATE KEY UPDATE hits = IF(window_ends_at <= ?, 1, hits + 1),
           window_ends_at = IF(window_ends_at <= ?, VALUES(window_ends_at), window_ends_at)`,
        parameters,
      );
      const rows = (await manager.query(`SELECT hits, window_ends_at FROM ${TABLE} WHERE counter_key = ?`, [
        key,
      ])) as RawWindow[];
      return toWindow(rows[0]);
    });
  }

  /** The open windows of `keys` (keys without one are absent). */
  async peek(keys: string[], now = Date.now()): Promise<Map<string, CounterWindow>> {
    const windows = await this.read(keys);
    for (const [key, window] of windows) if (window.endsAt <= now) windows.delete(key);
    return windows;
  }

  /** Takes back one hit of each of `keys` (an attempt that turned out not to count). */
  async undo(keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.dataSource
      .createQueryBuilder()
      .update(TABLE)
      .set({ hits: () => 'hits - 1' })
      .where('counter_key IN (:...keys) AND hits > 0', { keys })
      .execute();
  }

  /** Deletes the windows of `keys`, and of every key starting with one of `prefixes` (no LIKE wildcards). */
  async clear(keys: string[], prefixes: string[] = []): Promise<void> {
    const query = this.dataSource.createQueryBuilder().delete().from(TABLE).where('1 = 0');
    if (keys.length > 0) query.orWhere('counter_key IN (:...keys)', { keys });
    prefixes.forEach((prefix, index) => {
      if (/[%_\\]/.test(prefix))
        throw new RangeError(`a counter prefix may not hold LIKE wildcards: ${prefix}`);
      query.orWhere(`counter_key LIKE :prefix${index}`, { [`prefix${index}`]: `${prefix}%` });
    });
    await query.execute();
  }

  private async read(keys: string[]): Promise<Map<string, CounterWindow>> {
    const windows = new Map<string, CounterWindow>();
    if (keys.length === 0) return windows;
    const rows = await this.dataSource
      .createQueryBuilder()
      .select(['c.counter_key AS counter_key', 'c.hits AS hits', 'c.window_ends_at AS window_ends_at'])
      .from(TABLE, 'c')
      .where('c.counter_key IN (:...keys)', { keys })
      .getRawMany<RawWindow & { counter_key: string }>();
    for (const row of rows) windows.set(row.counter_key, toWindow(row));
    return windows;
  }

  private purgeNowAndThen(now: number): void {
    if (now - this.purgedAt < PURGE_EVERY_MS) return;
    this.purgedAt = now;
    void this.dataSource
      .createQueryBuilder()
      .delete()
      .from(TABLE)
      .where('window_ends_at < :now', { now })
      .execute()
      .catch((error: unknown) =>
        this.logger.warn(`could not purge ended rate limit windows: ${describe(error)}`),
      );
  }
}

function isDeadlock(error: unknown): boolean {
  const cause = (error as { driverError?: unknown })?.driverError ?? error;
  const { code, errno } = (cause ?? {}) as { code?: unknown; errno?: unknown };
  return code === 'ER_LOCK_DEADLOCK' || errno === 1213 || code === 'ER_LOCK_WAIT_TIMEOUT';
}

function toWindow(row: RawWindow): CounterWindow {
  return { hits: Number(row.hits), endsAt: Number(row.window_ends_at) };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
