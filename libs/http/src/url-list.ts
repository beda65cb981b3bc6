import type { Response } from 'express';
import { Paging, PagingQuery, readPaging, writePagingHeaders } from './paging';

/**
 * A list resource that answers an array of instance URLs: the whole array, or, when the client asks
 * with `page`/`pageSize` (default 100, at most 1000), one page plus X-Total-Count and Link headers.
 */
export async function urlList(
  query: PagingQuery,
  response: Response,
  listUrl: string,
  load: (paging: Paging | undefined) => Promise<{ ids: number[]; total: number }>,
  toUrl: (id: number) => string,
): Promise<string[]> {
  const paging = readPaging(query, 100, 1000);
  const { ids, total } = await load(paging);
  if (paging !== undefined) writePagingHeaders(response, listUrl, paging, total);
  return ids.map(toUrl);
}
