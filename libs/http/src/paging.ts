import type { Response } from 'express';
import { InvalidInput } from '@dam/errors';

export interface Paging {
  page: number;
  pageSize: number;
  offset: number;
}

export interface PagingQuery {
  page?: unknown;
  pageSize?: unknown;
}

/**
 * Optional `page` (0-based) and `pageSize` query parameters of list resources. Returns undefined when
 * the client asked for no paging, so the list keeps its plain-array, everything-at-once shape.
 */
export function readPaging(
  query: PagingQuery,
  defaultPageSize: number,
  maxPageSize: number,
): Paging | undefined {
  if (query.page === undefined && query.pageSize === undefined) return undefined;
  const page = readWholeNumber(query.page, 'page', 0, 0);
  const pageSize = readWholeNumber(query.pageSize, 'pageSize', defaultPageSize, 1);
  if (pageSize > maxPageSize) throw new InvalidInput(`pageSize must be at most ${maxPageSize}`);
  return { page, pageSize, offset: page * pageSize };
}

/** X-Total-Count, and a Link header with first/prev/next/last relations. */
export function writePagingHeaders(response: Response, listUrl: string, paging: Paging, total: number): void {
  response.setHeader('X-Total-Count', String(total));
  const lastPage = Math.max(0, Math.ceil(total / paging.pageSize) - 1);
  const link = (page: number, rel: string): string => {
    const url = new URL(listUrl);
    url.searchParams.set('page', String(page));
    url.searchParams.set('pageSize', String(paging.pageSize));
    return `<${url.toString()}>; rel="${rel}"`;
  };
  const links = [link(0, 'first')];
  if (paging.page > 0) links.push(link(Math.min(paging.page - 1, lastPage), 'prev'));
  if (paging.page < lastPage) links.push(link(paging.page + 1, 'next'));
  links.push(link(lastPage, 'last'));
  response.setHeader('Link', links.join(', '));
}

function readWholeNumber(raw: unknown, name: string, fallback: number, min: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = typeof raw === 'string' && /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < min) {
    throw new InvalidInput(`${name} must be a whole number of at least ${min}`);
  }
  return value;
}
