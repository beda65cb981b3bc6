import { PagingQuery, readPaging, writePagingHeaders } from '@dam/http';
import type { Response } from 'express';

/**
 * The whole list, or one page of it when the client sent `page`/`pageSize` (DESIGN §3). The lists of
 * this area are small configuration lists, so they are paged in memory.
 */
export function pageOf<T>(items: T[], query: PagingQuery, response: Response, listUrl: string): T[] {
  const paging = readPaging(query, 100, 1000);
  if (paging === undefined) return items;
  writePagingHeaders(response, listUrl, paging, items.length);
  return items.slice(paging.offset, paging.offset + paging.pageSize);
}
