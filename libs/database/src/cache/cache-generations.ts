import { Injectable, Module, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, EntitySubscriberInterface, QueryRunner } from 'typeorm';

/** How long one read of every generation stays current: each instance sees another's write within this. */
export const GENERATIONS_REFRESH_MS = 1000;

/**
 * Generation counters in the database (`cache_generations`), one per cached area ('access',
 * 'access-levels', 'attributes', ...). A writer bumps its area's counter in the same transaction as the
 * write; every instance reads all counters in one query at most once per `refreshMs` (shared by all
 * concurrent callers), so a cache that remembers the generation it was loaded under knows, cheaply,
 * whether it is still current. Within this instance a bump takes effect at once (before and again after
 * the writer's commit); on the other instances within `refreshMs`.
 *
 * What callers compare is a local version per name: it moves whenever this instance bumps the name or
 * sees its stored generation change, so it is never the same for two different states of the data.
 */
@Injectable()
export class CacheGenerations implements OnModuleInit {
  /** Milliseconds a read of the counters stays current (a test may lower it). */
  refreshMs = GENERATIONS_REFRESH_MS;
  private readonly stored = new Map<string, number>();
  private readonly local = new Map<string, number>();
  /** Moves with every change of `local`: a stamp made at the same count is still the stamp. */
  private changes = 0;
  /** The last stamp of each list of names (callers pass the same array every time). */
  private readonly stamps = new WeakMap<readonly string[], { changes: number; stamp: string }>();
  private readAt = Number.NEGATIVE_INFINITY;
  private inFlight: Promise<void> | undefined;
  /** Names bumped inside a transaction that has not ended yet, by its query runner. */
  private readonly pending = new WeakMap<QueryRunner, Set<string>>();

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  onModuleInit(): void {
    const subscriber: EntitySubscriberInterface = {
      afterTransactionCommit: ({ queryRunner }) => this.transactionEnded(queryRunner),
      afterTransactionRollback: ({ queryRunner }) => this.transactionEnded(queryRunner),
    };
    this.dataSource.subscribers.push(subscriber);
  }

  /**
   * Marks `name` changed: +1 on its stored generation (created at 1), in the writer's transaction when
   * `manager` is given. Call it last in the transaction, so the counter's row stays locked briefly.
   */
  async bump(name: string, manager?: EntityManager): Promise<void> {
    this.invalidate(name);
    const runner = manager?.queryRunner;
    await (manager ?? this.dataSource.manager).query(this.upsertSql(), [name]);
    if (runner !== undefined && runner.isTransactionActive) {
      const names = this.pending.get(runner) ?? new Set<string>();
      names.add(name);
      this.pending.set(runner, names);
    }
    this.invalidate(name);
  }

  /** This instance's version of `name`, current to within `refreshMs`. */
  async current(name: string): Promise<number> {
    await this.fresh();
    return this.local.get(name) ?? 0;
  }

  /** Whether `seen` (from `current`) still names the current state of `name`. */
  async isCurrent(name: string, seen: number): Promise<boolean> {
    return (await this.current(name)) === seen;
  }

  /** One comparable stamp for several names (a cache that depends on more than one area). */
  async stamp(names: readonly string[]): Promise<string> {
    await this.fresh();
    return this.peek(names);
  }

  /**
   * `stamp` without a promise while the generations were read less than `refreshMs` ago (nearly every
   * call on a busy instance): the stamp itself, else a promise of it once they are read again.
   */
  stampNow(names: readonly string[]): string | Promise<string> {
    const reading = this.fresh();
    return reading === undefined ? this.peek(names) : reading.then(() => this.peek(names));
  }

  /** The stamp as this instance knows it now, without reading the counters (see `stamp`). */
  peek(names: readonly string[]): string {
    const known = this.stamps.get(names);
    if (known?.changes === this.changes) return known.stamp;
    const stamp = names.map((name) => this.local.get(name) ?? 0).join('.');
    this.stamps.set(names, { changes: this.changes, stamp });
    return stamp;
  }

  private fresh(): Promise<void> | undefined {
    if (performance.now() - this.readAt < this.refreshMs) return undefined;
    this.inFlight ??= this.read().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async read(): Promise<void> {
    const started = performance.now();
    const rows: Array<{ name: string; generation: number | string }> = await this.dataSource.query(
      'SELECT name, generation FROM cache_generations',
    );
    const seen = new Set<string>();
    for (const row of rows) {
      const generation = Number(row.generation);
      seen.add(row.name);
      if (this.stored.get(row.name) !== generation) {
        this.stored.set(row.name, generation);
        this.invalidate(row.name);
      }
    }
    for (const name of [...this.stored.keys()]) {
      if (!seen.has(name)) {
        this.stored.delete(name);
        this.invalidate(name);
      }
    }
    this.readAt = started;
  }

  private invalidate(name: string): void {
    this.local.set(name, (this.local.get(name) ?? 0) + 1);
    this.changes++;
  }

  private transactionEnded(runner: QueryRunner | undefined): void {
    if (runner === undefined || runner.isTransactionActive) return;
    const names = this.pending.get(runner);
    if (names === undefined) return;
    this.pending.delete(runner);
    for (const name of names) this.invalidate(name);
  }

  private upsertSql(): string {
    return this.dataSource.options.type === 'mysql'
      ? 'INSERT INTO cache_generations (name, generation) VALUES (?, 1) ' +
          'ON DUPLICATE KEY UPDATE generation = generation + 1'
      : 'INSERT INTO cache_generations (name, generation) VALUES (?, 1) ' +
          'ON CONFLICT (name) DO UPDATE SET generation = generation + 1';
  }
}

/** Provides the one CacheGenerations of the process; every area with a cache imports it. */
@Module({ providers: [CacheGenerations], exports: [CacheGenerations] })
export class CacheGenerationsModule {}
