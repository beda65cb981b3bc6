import type { Response } from 'express';
import { InvalidInput } from '@dam/errors';
import { parseWholeNumber } from './parsers';

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
 * Optional `page` (0-based) and `pageSize` query parameters of list resources (pagedList; the asset
 * search, whose links differ, reads them alone). Returns undefined when the client asked for no paging,
 * so the list keeps its plain-array, everything-at-once shape.
 */
export function readPaging(
  query: PagingQuery,
  defaultPageSize: number,
  maxPageSize: number,
): Paging | undefined {
  if (query.page === undefined && query.pageSize === undefined) return undefined;
  const page = parseWholeNumber(query.page, 'page', { min: 0 }) ?? 0;
  const pageSize = parseWholeNumber(query.pageSize, 'pageSize', { min: 1 }) ?? defaultPageSize;
  if (pageSize > maxPageSize) throw new InvalidInput(`pageSize must be at most ${maxPageSize}`);
  return { page, pageSize, offset: page * pageSize };
}

/** How a list pages: its default and largest page sizes, and what it answers when the client asks for none. */
export interface ListPaging {
  pageSize: number;
  maxPageSize: number;
  /** Without `page`/`pageSize`, the first page (a long history), rather than everything. */
  firstPageByDefault?: boolean;
}

/** The lists of DESIGN §3: pages of 100 by default, at most 1000, everything when not asked to page. */
const LIST_PAGING: ListPaging = { pageSize: 100, maxPageSize: 1000 };

/** What a loader reads: a page of a list (or all of it when `paging` is undefined) and the total. */
type Loaded = { total: number };

/**
 * The one way a list resource pages: `load` reads the page the client asked for with `page`/`pageSize`,
 * or everything when it asked for none (the plain-array shape), with the total; a paged answer carries
 * X-Total-Count and Link. Answers what `load` did; given the whole list in memory (small configuration
 * lists), answers its page.
 */
export async function pagedList<T>(
  query: PagingQuery,
  response: Response,
  listUrl: string,
  items: readonly T[],
): Promise<T[]>;
export async function pagedList<P extends Loaded>(
  query: PagingQuery,
  response: Response,
  listUrl: string,
  load: (paging: Paging) => P | Promise<P>,
  sizes: ListPaging & { firstPageByDefault: true },
): Promise<P>;
export async function pagedList<P extends Loaded>(
  query: PagingQuery,
  response: Response,
  listUrl: string,
  load: (paging: Paging | undefined) => P | Promise<P>,
  sizes?: ListPaging,
): Promise<P>;
export async function pagedList(
  query: PagingQuery,
  response: Response,
  listUrl: string,
  source: readonly unknown[] | ((paging: Paging) => Loaded | Promise<Loaded>),
  sizes: ListPaging = LIST_PAGING,
): Promise<unknown> {
  if (isList(source)) return (await pagedList(query, response, listUrl, inMemory(source))).items;
  const asked = readPaging(query, sizes.pageSize, sizes.maxPageSize);
  const firstPage =
    sizes.firstPageByDefault === true ? { page: 0, pageSize: sizes.pageSize, offset: 0 } : undefined;
  const paging = asked ?? firstPage;
  // `paging` is undefined only for lists without firstPageByDefault, whose `load` accepts it (overloads).
  const loaded = await (source as (paging: Paging | undefined) => Loaded | Promise<Loaded>)(paging);
  if (paging !== undefined) writePagingHeaders(response, listUrl, paging, loaded.total);
  return loaded;
}

function isList(source: unknown): source is readonly unknown[] {
  return Array.isArray(source);
}

/** A list held in memory, loaded as pagedList loads a page: the page, and the total. */
function inMemory<T>(items: readonly T[]): (paging: Paging | undefined) => { items: T[]; total: number } {
  return (paging) => ({
    items: paging === undefined ? [...items] : items.slice(paging.offset, paging.offset + paging.pageSize),
    total: items.length,
  });
}

/** X-Total-Count, and a Link header with first/prev/next/last relations. */
function writePagingHeaders(response: Response, listUrl: string, paging: Paging, total: number): void {
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
