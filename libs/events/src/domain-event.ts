import type { EntityManager } from 'typeorm';

/**
 * A domain event (docs/events.md): something that changed, named `<area>.<what-happened>`
 * (`asset.created`), with a small JSON-safe payload of ids and absolute URLs. Each owner lib defines its
 * own event classes (subclasses naming their `type`) and records them with `DomainEvents.record` inside
 * the transaction of the change.
 */
export abstract class DomainEvent<D extends object = object> {
  /** `<area>.<what-happened>`, e.g. `asset.created`: the name listeners (`@OnEvent`) and webhooks use. */
  abstract readonly type: string;
  readonly occurredAt: Date;
  /**
   * The fields the change changed, for the audit log only (never in the outbox, so never sent to a
   * webhook): set by the owner with `withChanges`. Never a secret.
   */
  changes?: FieldChanges;

  constructor(
    readonly data: D,
    occurredAt = new Date(),
  ) {
    this.occurredAt = occurredAt;
  }

  withChanges(changes: FieldChanges): this {
    this.changes = changes;
    return this;
  }
}

/**
 * The base of an owner's event class: `class AssetCreated extends EventType<AssetEventData>('asset.created') {}`
 * gives it `type` and the static `TYPE` that listeners name (`@OnEvent(AssetCreated.TYPE)`).
 */
export function EventType<D extends object>(type: string) {
  return class extends DomainEvent<D> {
    static readonly TYPE = type;
    readonly type = type;
  };
}

/** `{field: {before, after}}` of a change: an attribute keyed by its label (`Title`). */
export type FieldChanges = Record<string, { before: unknown; after: unknown }>;

/**
 * Work that must be part of every recording of events (the audit log's entries): runs in the
 * transaction of the change, after the outbox rows, so it commits or rolls back with them.
 */
export type EventRecorder = (manager: EntityManager, events: readonly DomainEvent[]) => Promise<void>;

/** An event as stored in the outbox and handed to its consumers (webhooks) by `DomainEvents.claim`. */
export interface OutboxEvent {
  /** Unique, stable across retries and instances: the `webhook-id` of its deliveries. */
  eventId: string;
  type: string;
  occurredAt: Date;
  data: Record<string, unknown>;
}

/** Who made a change, in an event's payload: the user's id and absolute URL (null from a job). */
export interface ActorRef {
  actorId: number | null;
  actorUrl: string | null;
}

/**
 * `{actorId, actorUrl}` for the user `userId` (`{origin}/rest/users/{id}`), built with `urls.rest`: pass
 * `UrlService.configured()`, as every event payload is read outside the request that made it.
 */
export function actorRef(
  urls: { rest(...segments: (string | number)[]): string },
  userId?: number | null,
): ActorRef {
  return userId === undefined || userId === null
    ? { actorId: null, actorUrl: null }
    : { actorId: userId, actorUrl: urls.rest('users', userId) };
}

/**
 * Work an owner's repository runs inside its own write transaction, with the id written (typically
 * `(manager, id) => events.record(manager, new AssetCreated(...))`, so the change and its events commit together).
 */
export type InTransaction<K = number> = (manager: EntityManager, subject: K) => Promise<void>;
