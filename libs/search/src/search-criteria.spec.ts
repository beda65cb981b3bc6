import { QueryParams } from '@dam/http';
import { isoInstant, parseSearchCriteria, parseSearchOrder } from './search-criteria';

const criteria = (query: string) => parseSearchCriteria(QueryParams.fromQueryString(query));

describe('QueryParams', () => {
  it('reads arrays repeated, comma-joined or with [n] suffixes, and a single value last-wins', () => {
    const params = QueryParams.fromQueryString('a=1&a=2,3&a[0]=4&a[]=5&b=x&b=&b=y');
    expect(params.list('a')).toEqual(['1', '2', '3', '4', '5']);
    expect(params.single('b')).toBe('y');
    expect(params.single('missing')).toBeUndefined();
    expect(QueryParams.fromUrl('/rest/asset-search?keywords=a%20b').single('keywords')).toBe('a b');
  });

  it('builds from a JSON object and writes a canonical query string', () => {
    const params = QueryParams.fromObject({ keywords: 'red car', ids: [1, 2], flag: true }, 'criteria');
    expect(params.toQueryString()).toBe('keywords=red+car&ids=1&ids=2&flag=true');
    expect(() => QueryParams.fromObject({ a: { b: 1 } }, 'criteria')).toThrow('criteria a must be a string');
  });
});

describe('parseSearchCriteria', () => {
  it('reads every parameter', () => {
    const parsed = criteria(
      'keywords=bridge&attribute_5=Red&attribute_6=&attributeQueryConjunction=or&assetIds=3&assetIds=10-12' +
        '&assetTypeId=2&filename=a*.jpg&dateAddedLower=2024-01-01&dateAddedUpper=2024-01-31' +
        '&dateModUpper=2024-02-01T10:00:00%2B01:00&descriptiveCategoryForm.categoryIds=4,5' +
        '&permissionCategoryForm.categoryIds[0]=7&includeImplicitCategoryMembers=TRUE&approvalStatuses=none' +
        '&unsubmitted=false&parentIds=9&quickSearch=true' +
        `&contentSha256=${'A'.repeat(64)},${'b'.repeat(64)}&contentSha256=${'a'.repeat(64)}`,
    );
    expect(parsed).toEqual({
      keywords: { kind: 'term', tokens: ['bridge'], prefix: false },
      attributes: [{ attributeId: 5, value: 'Red' }],
      attributeConjunction: 'OR',
      assetIds: [
        { from: 3, to: 3 },
        { from: 10, to: 12 },
      ],
      assetTypeId: 2,
      contentSha256: ['a'.repeat(64), 'b'.repeat(64)],
      filename: 'a*.jpg',
      dateAdded: [
        { op: '>=', at: new Date('2024-01-01T00:00:00Z') },
        { op: '<', at: new Date('2024-02-01T00:00:00Z') },
      ],
      dateModified: [{ op: '<=', at: new Date('2024-02-01T09:00:00Z') }],
      descriptiveCategoryIds: [4, 5],
      permissionCategoryIds: [7],
      includeImplicitCategoryMembers: true,
      approvalStatuses: ['none'],
      unsubmitted: false,
      parentIds: [9],
    });
  });

  it('has no conditions by default', () => {
    expect(criteria('')).toMatchObject({
      attributes: [],
      attributeConjunction: 'AND',
      assetIds: [],
      contentSha256: [],
      includeImplicitCategoryMembers: false,
      approvalStatuses: [],
    });
  });

  it.each([
    ['assetIds=5-2', 'assetIds range 5-2 runs backwards: write 2-5'],
    ['assetIds=1-x', 'assetIds must be an id or a range of ids such as 2-9, not "1-x"'],
    ['assetIds=0', 'assetIds must be an id or a range'],
    ['attribute_abc=1', 'attribute_abc is not a search parameter: use attribute_<id>'],
    ['attributeQueryConjunction=NOR', 'attributeQueryConjunction must be AND or OR'],
    ['assetTypeId=-3', 'assetTypeId must be a positive whole number'],
    ['descriptiveCategoryForm.categoryIds=1,x', 'descriptiveCategoryForm.categoryIds must be a whole number'],
    ['dateAddedLower=yesterday', 'dateAddedLower must be an ISO-8601 date'],
    ['dateModLower=2024-13-01', 'dateModLower must be an ISO-8601 date'],
    ['dateModLower=2024-01-01T25:00', 'dateModLower must be an ISO-8601 date'],
    ['unsubmitted=yes', 'unsubmitted must be true or false'],
    ['approvalStatuses=full,partial', 'approvalStatuses must be full or none, not "partial"'],
    [
      `contentSha256=${'a'.repeat(64)},abc`,
      'contentSha256 must be a SHA-256 as 64 hexadecimal digits, not "abc"',
    ],
    [
      Array.from({ length: 41 }, (_, n) => `contentSha256=${n.toString(16).padStart(64, '0')}`).join('&'),
      'contentSha256 takes at most 40 digests in one search, not 41',
    ],
  ])('refuses %s', (query, message) => {
    expect(() => criteria(query)).toThrow(message);
  });

  it('reads the order separately', () => {
    expect(parseSearchOrder(QueryParams.fromQueryString('sortAttributeId=4&sortDescending=true'))).toEqual({
      sortAttributeId: 4,
      descending: true,
    });
    expect(parseSearchOrder(QueryParams.fromQueryString(''))).toEqual({ descending: false });
  });
});

describe('isoInstant', () => {
  it('reads dates and date-times, UTC unless a zone is given', () => {
    expect(isoInstant('2024-02-29', 'x')).toEqual({ at: new Date('2024-02-29T00:00:00Z'), dateOnly: true });
    expect(isoInstant('2024-02-29T23:59:59.5Z', 'x').at).toEqual(new Date('2024-02-29T23:59:59.500Z'));
    expect(isoInstant('2024-03-01 08:00', 'x').at).toEqual(new Date('2024-03-01T08:00:00Z'));
    expect(isoInstant('2024-03-01T08:00-0230', 'x').at).toEqual(new Date('2024-03-01T10:30:00Z'));
    expect(() => isoInstant('2023-02-29', 'x')).toThrow('x must be an ISO-8601 date');
  });
});
