import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { AttributeUpdated } from '@dam/attributes';
import { DomainEvent, DomainEvents } from '@dam/events';
import { JobAlreadyRunning, JobRunner } from '@dam/jobs';
import { EntityManager } from 'typeorm';
import { ReindexRequestsRepository } from './reindex-requests.repository';

/** The attribute of an `attribute.updated` event that changed its type; undefined for any other event. */
function retypedAttribute(event: DomainEvent): number | undefined {
  if (event.type !== AttributeUpdated.TYPE || event.changes?.typeId === undefined) return undefined;
  return (event.data as { attributeId: number }).attributeId;
}

/**
 * A change of an attribute's type reindexes its values: the tokens and sort copies of a value depend on
 * its attribute's type (a Text `10` sorts before `9`, a Numeric one after). The request is written in the
 * change's transaction (a recorder of DomainEvents), so it is not lost with the process; once the change
 * has committed, the `reindex-attributes` job is started (a run already going on takes it up before it
 * ends). Until the run has passed, sorting and searching by the attribute follow its old type.
 */
@Injectable()
export class AttributeTypeChanges implements OnModuleInit {
  private readonly logger = new Logger('AttributeTypeChanges');

  constructor(
    private readonly events: DomainEvents,
    private readonly requests: ReindexRequestsRepository,
    private readonly jobs: JobRunner,
  ) {}

  onModuleInit(): void {
    this.events.addRecorder((manager, events) => this.record(manager, events));
  }

  private async record(manager: EntityManager, events: readonly DomainEvent[]): Promise<void> {
    const retyped = events.map(retypedAttribute).filter((id): id is number => id !== undefined);
    if (retyped.length > 0) await this.requests.request(manager, retyped);
  }

  @OnEvent(AttributeUpdated.TYPE, { async: true, promisify: true })
  async reindexAfter(event: DomainEvent): Promise<void> {
    if (retypedAttribute(event) === undefined) return;
    try {
      await this.jobs.trigger('reindex-attributes', false);
    } catch (error) {
      if (error instanceof JobAlreadyRunning) return;
      this.logger.warn(`reindex-attributes could not start: ${String(error)}`);
    }
  }
}
