import { InvalidInput } from '@dam/errors';
import { parseBoolean, parseOptionalId } from '@dam/http';

/** The query of GET /rest/category-search (spec 4.2); `userId` is resolved to the actor by the auth guard. */
export interface CategorySearchQuery {
  parentId?: number;
  count: boolean;
}

export function readCategorySearchQuery(query: Record<string, unknown>): CategorySearchQuery {
  if (Array.isArray(query.parentId)) throw new InvalidInput('parentId must be given once');
  return {
    parentId: parseOptionalId(query.parentId, 'parentId'),
    count: parseBoolean(query.count, 'count') ?? false,
  };
}
