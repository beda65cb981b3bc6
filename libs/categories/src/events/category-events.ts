import { ActorRef, actorRef, EventType } from '@dam/events';
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

export class CategoryCreated extends EventType<CategoryEventData>('category.created') {}

/** Its name, description (in any language) or parent changed. */
export class CategoryUpdated extends EventType<CategoryEventData>('category.updated') {}

export class CategoryDeleted extends EventType<CategoryEventData>('category.deleted') {}
