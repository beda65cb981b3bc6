import { Injectable } from '@nestjs/common';
import { ActorUser, requireAdmin } from '@dam/access';
import { AssetFilter, AssetQueries } from '@dam/assets';
import { AttributesCatalog } from '@dam/attributes';
import { InvalidInput } from '@dam/errors';
import { parseOptionalId } from '@dam/http';
import { LanguageService } from '@dam/i18n';
import { SearchPlanner } from '@dam/search';
import { MISSING_NAME, PublishingActionPostDto } from './dto/publishing-action.dto';
import { canonicalCriteria, storedCriteria } from './publishing-criteria';
import {
  PublishingActionRow,
  PublishingActionsRepository,
  PublishingEvent,
} from './publishing-actions.repository';
import { PublishingActionNotFound } from './publishing-errors';

export const LOG_PAGE_SIZE = 1000;

/**
 * Publishing actions (issue 7): admins name an asset search; each run logs what entered (PUBLISH) or
 * left (UNPUBLISH) its result set since the previous run, so integrators can sync from the log. The
 * search is evaluated as the application user, who sees every asset.
 */
@Injectable()
export class PublishingActionsService {
  constructor(
    private readonly repository: PublishingActionsRepository,
    private readonly planner: SearchPlanner,
    private readonly queries: AssetQueries,
    private readonly catalog: AttributesCatalog,
    private readonly languages: LanguageService,
  ) {}

  /** Creates an action (`{name, criteria}`) or runs one (`{publishingActionId}`). */
  async post(actor: ActorUser, body: PublishingActionPostDto): Promise<{ created: boolean; id: number }> {
    requireAdmin(actor, 'manage and run publishing actions');
    const record: PublishingActionPostDto = body ?? {};
    if (record.publishingActionId !== undefined) {
      const id = parseOptionalId(record.publishingActionId, 'publishingActionId');
      if (id === undefined || id < 1)
        throw new InvalidInput('publishingActionId must be a positive whole number');
      await this.run(id);
      return { created: false, id };
    }
    const name = (record.name ?? '').trim();
    if (name === '') throw new InvalidInput(MISSING_NAME);
    if (name.length > 255) throw new InvalidInput('name must be at most 255 characters');
    if (record.criteria === undefined)
      throw new InvalidInput(
        'you must supply criteria: an asset-search query string or an object of its parameters',
      );
    const criteria = canonicalCriteria(record.criteria);
    await this.plan(criteria);
    return { created: true, id: await this.repository.create(name, criteria) };
  }

  async list(actor: ActorUser): Promise<PublishingActionRow[]> {
    requireAdmin(actor, 'manage and run publishing actions');
    return this.repository.list();
  }

  async get(actor: ActorUser, id: number): Promise<PublishingActionRow> {
    requireAdmin(actor, 'manage and run publishing actions');
    return this.findOrThrow(id);
  }

  async delete(actor: ActorUser, id: number): Promise<void> {
    requireAdmin(actor, 'manage and run publishing actions');
    if (!(await this.repository.delete(id))) throw new PublishingActionNotFound(id);
  }

  async log(
    actor: ActorUser,
    id: number,
    rawStart: unknown,
  ): Promise<{ events: PublishingEvent[]; nextStartSequence: number }> {
    requireAdmin(actor, 'manage and run publishing actions');
    const start = parseOptionalId(rawStart, 'startSequence') ?? 0;
    if (start < 0) throw new InvalidInput('startSequence must be a whole number of at least 0');
    await this.findOrThrow(id);
    const events = await this.repository.events(id, start, LOG_PAGE_SIZE);
    const last = events[events.length - 1];
    return { events, nextStartSequence: last === undefined ? start : last.sequence + 1 };
  }

  /** The search is read after the run holds the action, so overlapping runs see each other's result. */
  private async run(id: number): Promise<void> {
    const action = await this.findOrThrow(id);
    const filter = await this.plan(action.criteria);
    if (!(await this.repository.run(id, () => this.queries.ids(filter))))
      throw new PublishingActionNotFound(id);
  }

  /** Every asset (no `visibleTo`): actions evaluate as the application user. */
  private async plan(criteria: string): Promise<AssetFilter> {
    const attributes = await this.catalog.all(this.languages.defaultLanguage);
    return this.planner.plan(storedCriteria(criteria), attributes);
  }

  private async findOrThrow(id: number): Promise<PublishingActionRow> {
    const action = await this.repository.find(id);
    if (action === null) throw new PublishingActionNotFound(id);
    return action;
  }
}
