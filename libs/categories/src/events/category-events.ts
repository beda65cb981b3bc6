import { ActorRef, actorRef, DomainEvent } from '@dam/events';
import { UrlService } from '@dam/http';

/** The payload of every `category.*` event (docs/events.md). */
export interface CategoryEventData extends ActorRef {
  categoryId: number;
  categoryUrl: string;
}

export function categoryEventData(urls: UrlService, categoryId: number, actorId: number): CategoryEventData {
  return {
    categoryId,
    categoryUrl: urls.configured().rest('categories', categoryId),
    ...actorRef(urls.configured(), actorId),
  };
}

export class CategoryCreated extends DomainEvent<CategoryEventData> {
  static readonly TYPE = 'category.created';
  readonly type = CategoryCreated.TYPE;
}

/** Its name, description (in any language) or parent changed. */
export class CategoryUpdated extends DomainEvent<CategoryEventData> {
  static readonly TYPE = 'category.updated';
  readonly type = CategoryUpdated.TYPE;
}

export class CategoryDeleted extends DomainEvent<CategoryEventData> {
  static readonly TYPE = 'category.deleted';
  readonly type = CategoryDeleted.TYPE;
}
