import type { Response } from 'express';
import { InvalidInput } from '@dam/errors';
import { PagingQuery, pagedList } from './paging';

const LIST_URL = 'https://dam.example/rest/attributes';
const ITEMS = ['a', 'b', 'c', 'd', 'e'];

function fakeResponse() {
  const headers = new Map<string, string>();
  const response = { setHeader: (name: string, value: string) => headers.set(name, value) };
  return { response: response as unknown as Response, headers };
}

async function page(query: PagingQuery, items: string[] = ITEMS) {
  const { response, headers } = fakeResponse();
  return { items: await pagedList(query, response, LIST_URL, items), headers };
}

describe('pagedList (DESIGN §3 list paging), of a list in memory', () => {
  it('returns the whole list, with no paging headers, when neither page nor pageSize is sent', async () => {
    const { items, headers } = await page({});
    expect(items).toEqual(ITEMS);
    expect(headers.size).toBe(0);
  });

  it.each<[PagingQuery, string[]]>([
    [{ page: '0', pageSize: '2' }, ['a', 'b']],
    [{ page: '1', pageSize: '2' }, ['c', 'd']],
    [{ page: '2', pageSize: '2' }, ['e']],
    [{ page: '3', pageSize: '2' }, []],
    [{ page: '0', pageSize: '5' }, ITEMS],
    [{ page: '0', pageSize: '1000' }, ITEMS],
    [{ pageSize: '3' }, ['a', 'b', 'c']],
    [{ page: '0' }, ITEMS],
    [{ page: '1' }, []],
  ])('query %j gives %j', async (query, expected) => {
    expect((await page(query)).items).toEqual(expected);
  });

  it('counts the whole list in X-Total-Count, not the page', async () => {
    expect((await page({ page: '1', pageSize: '2' })).headers.get('X-Total-Count')).toBe('5');
  });

  it('links the first, previous, next and last pages with absolute URLs', async () => {
    const link = (await page({ page: '1', pageSize: '2' })).headers.get('Link') ?? '';
    const relations = Object.fromEntries(
      [...link.matchAll(/<([^>]+)>; rel="(\w+)"/g)].map(([, url, rel]) => [rel, new URL(url)]),
    );
    expect(Object.keys(relations).sort()).toEqual(['first', 'last', 'next', 'prev']);
    expect(relations.first.searchParams.get('page')).toBe('0');
    expect(relations.prev.searchParams.get('page')).toBe('0');
    expect(relations.next.searchParams.get('page')).toBe('2');
    expect(relations.last.searchParams.get('page')).toBe('2');
    for (const url of Object.values(relations)) {
      expect(url.origin + url.pathname).toBe(LIST_URL);
      expect(url.searchParams.get('pageSize')).toBe('2');
    }
  });

  it('pages an empty list as one empty page', async () => {
    const { items, headers } = await page({ page: '0', pageSize: '10' }, []);
    expect(items).toEqual([]);
    expect(headers.get('X-Total-Count')).toBe('0');
  });

  it.each<[PagingQuery, string]>([
    [{ pageSize: '1001' }, 'pageSize must be at most 1000'],
    [{ pageSize: '0' }, 'pageSize must be a whole number of at least 1'],
    [{ page: '-1' }, 'page must be a whole number of at least 0'],
    [{ page: 'two' }, 'page must be a whole number of at least 0'],
    [{ page: '1.5', pageSize: '2' }, 'page must be a whole number of at least 0'],
  ])('rejects %j with a 400: %s', async (query, message) => {
    const { response } = fakeResponse();
    const load = jest.fn(() => ({ items: ITEMS, total: ITEMS.length }));
    await expect(pagedList(query, response, LIST_URL, load)).rejects.toThrow(new InvalidInput(message));
    await expect(pagedList(query, response, LIST_URL, load)).rejects.toThrow(InvalidInput);
    expect(load).not.toHaveBeenCalled();
  });
});
