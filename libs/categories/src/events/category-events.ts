import { ActorRef, actorRef, EventType, FieldChanges, fieldChanges } from '@dam/events';
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

/** The fields of a category the audit log compares (texts in the default language; the parent's id). */
export interface AuditedCategory {
  name?: string;
  description?: string | null;
  parentId?: number | null;
}

/**
 * `{field: {before, after}}` of a category write (`before` undefined for a creation, `after` for a
 * deletion); a field the write leaves out (undefined in `after`) keeps its value and is not a change.
 */
export function categoryChanges(
  before: AuditedCategory | undefined,
  after: AuditedCategory | undefined,
): FieldChanges {
  const written = after === undefined || before === undefined ? after : { ...before, ...defined(after) };
  return fieldChanges(before, written, ['name', 'description', 'parentId']);
}

function defined(fields: AuditedCategory): AuditedCategory {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}
