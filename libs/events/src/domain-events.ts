import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager, EntitySubscriberInterface, QueryRunner } from 'typeorm';
import { dateOfDatetime } from '@dam/core';
import { DomainEvent, EventRecorder, OutboxEvent } from './domain-event';

const TABLE = 'domain_events';
/** Named, since TypeORM leaves out the column list of a multi-row insert into a table without an entity. */
const COLUMNS = ['event_id', 'type', 'data', 'occurred_at', 'claimed_until', 'claim_token'];

interface Pending {
  depth: number;
  event: DomainEvent;
}

interface RawEvent {
  event_id: string;
  type: string;
  occurred_at: Date | string;
  data: string;
}

/**
 * Domain events (docs/events.md), the transactional outbox way:
 *
 * - `record(manager, event)` writes the event into `domain_events` (platform's) in the caller's
 *   transaction, so it commits or rolls back with the change;
 * - once that transaction has committed, the event is emitted in process through EventEmitter2
 *   (`@OnEvent('asset.created')`, `@OnEvent('asset.*')`); a rolled-back change emits nothing;
 * - the stored rows are the outbox of the webhooks: `claim` hands a batch to one consumer (a lease, safe
 *   across instances), `settle` removes them once handed on. An event whose change committed is therefore
 *   delivered even when the process died right after the commit.
 *
 * In-process listeners are told once, on the instance that made the change, after the commit: a process
 * that dies in between loses that call (not the outbox row). Listeners that must see every event
 * reconcile from the data (see examples/rights-expiry).
 */
@Injectable()
export class DomainEvents implements OnModuleInit {
  private readonly logger = new Logger('DomainEvents');
  /** Events recorded inside a transaction that has not ended yet, by its query runner. */
  private readonly pending = new WeakMap<QueryRunner, Pending[]>();
  /** Run by every `record`, in its transaction (addRecorder). */
  private readonly recorders: EventRecorder[] = [];

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly emitter: EventEmitter2,
  ) {}

  onModuleInit(): void {
    const subscriber: EntitySubscriberInterface = {
      afterTransactionCommit: ({ queryRunner }) => this.committed(queryRunner),
      afterTransactionRollback: ({ queryRunner }) => this.rolledBack(queryRunner),
    };
    this.dataSource.subscribers.push(subscriber);
  }

  /** Adds work that every `record` runs in the transaction of the change (the audit log's entries). */
  addRecorder(recorder: EventRecorder): void {
    this.recorders.push(recorder);
  }

  /**
   * Events that change nothing (a download, a failed login): only the recorders keep them (the audit
   * log), at once and without a transaction; not in the outbox, so no webhook or listener sees them.
   */
  async recordUnpublished(...events: DomainEvent[]): Promise<void> {
    if (events.length === 0) return;
    for (const recorder of this.recorders) await recorder(this.dataSource.manager, events);
  }

  /**
   * Stores `events` in the outbox within `manager`'s transaction, and emits them in process after it
   * commits. Outside a transaction the row commits at once, and the events are emitted right after.
   */
  async record(manager: EntityManager, ...events: DomainEvent[]): Promise<void> {
    if (events.length === 0) return;
    await manager
      .createQueryBuilder()
      .insert()
      .into(TABLE, COLUMNS)
      .values(
        events.map((event) => ({
          event_id: `evt_${randomUUID().replace(/-/g, '')}`,
          type: event.type,
          data: JSON.stringify(event.data),
          occurred_at: event.occurredAt,
          claimed_until: null,
          claim_token: null,
        })),
      )
      .execute();
    for (const recorder of this.recorders) await recorder(manager, events);
    const runner = manager.queryRunner;
    if (runner !== undefined && runner.isTransactionActive) {
      const pending = this.pending.get(runner) ?? [];
      const depth = (runner as { transactionDepth?: number }).transactionDepth ?? 1;
      for (const event of events) pending.push({ depth, event });
      this.pending.set(runner, pending);
      return;
    }
    this.emitSoon(events);
  }

  /**
   * Claims up to `limit` stored events no one holds (or whose holder's lease ran out) for `leaseMs`,
   * oldest first. The claim is one conditional UPDATE per row set, so two instances never hold the
   * same event; the claimer `settle`s them (deletes) once it has handed them on.
   */
  async claim(
    limit: number,
    leaseMs: number,
    now = new Date(),
  ): Promise<{ token: string; events: OutboxEvent[] }> {
    const token = randomUUID();
    const until = new Date(Math.ceil((now.getTime() + leaseMs) / 1000) * 1000);
    const claim = this.dataSource
      .createQueryBuilder()
      .update(TABLE)
      .set({ claim_token: token, claimed_until: until });
    const free = '(claimed_until IS NULL OR claimed_until < :now)';
    const count = Math.max(1, Math.floor(limit));
    if (this.dataSource.options.type === 'mysql') {
      await claim.where(free, { now }).orderBy('id', 'ASC').limit(count).execute();
    } else {
      // SQLite has no UPDATE ... LIMIT here; MySQL refuses a subquery on the table it updates.
      await claim
        .where(`id IN (SELECT id FROM ${TABLE} WHERE ${free} ORDER BY id LIMIT ${count})`, { now })
        .execute();
    }
    const rows: RawEvent[] = await this.dataSource
      .createQueryBuilder()
      .select(['e.event_id AS event_id', 'e.type AS type', 'e.occurred_at AS occurred_at', 'e.data AS data'])
      .from(TABLE, 'e')
      .where('e.claim_token = :token', { token })
      .orderBy('e.id', 'ASC')
      .getRawMany();
    return {
      token,
      events: rows.map((row) => ({
        eventId: row.event_id,
        type: row.type,
        occurredAt: dateOfDatetime(row.occurred_at),
        data: JSON.parse(row.data) as Record<string, unknown>,
      })),
    };
  }

  /** Removes the events of a claim (within the consumer's transaction when `manager` is given). */
  async settle(token: string, manager: EntityManager = this.dataSource.manager): Promise<number> {
    const result = await manager
      .createQueryBuilder()
      .delete()
      .from(TABLE)
      .where('claim_token = :token', { token })
      .execute();
    return result.affected ?? 0;
  }

  /** How many events wait in the outbox (operators, tests). */
  async backlog(): Promise<number> {
    const row: { count: number | string } | undefined = await this.dataSource
      .createQueryBuilder()
      .select('COUNT(*)', 'count')
      .from(TABLE, 'e')
      .getRawOne();
    return Number(row?.count ?? 0);
  }

  private committed(runner: QueryRunner | undefined): void {
    if (runner === undefined || runner.isTransactionActive) return;
    const pending = this.pending.get(runner);
    if (pending === undefined) return;
    this.pending.delete(runner);
    this.emitSoon(pending.map((entry) => entry.event));
  }

  /** The events recorded at a depth that rolled back are dropped (all of them when the outer one did). */
  private rolledBack(runner: QueryRunner | undefined): void {
    if (runner === undefined) return;
    const pending = this.pending.get(runner);
    if (pending === undefined) return;
    if (!runner.isTransactionActive) {
      this.pending.delete(runner);
      return;
    }
    const depth = (runner as { transactionDepth?: number }).transactionDepth ?? 0;
    this.pending.set(
      runner,
      pending.filter((entry) => entry.depth <= depth),
    );
  }

  /** Off the committing call's path: a listener's failure never turns a committed change into an error. */
  private emitSoon(events: DomainEvent[]): void {
    setImmediate(() => {
      for (const event of events) {
        try {
          this.emitter.emit(event.type, event);
        } catch (error) {
          this.logger.error(
            `a listener of ${event.type} failed: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
      }
    });
  }
}
