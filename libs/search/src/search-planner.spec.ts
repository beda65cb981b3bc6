import { UsersService } from '@dam/access';
import { AccessLevelsService } from '@dam/access-levels';
import { AttributeDefinition, AttributesCatalog, AttributeType, SystemAttribute } from '@dam/attributes';
import { CategoriesService } from '@dam/categories';
import { QueryParams } from '@dam/http';
import { parseSearchCriteria, parseSearchOrder } from './search-criteria';
import { expandedIds, SearchPlanner } from './search-planner.service';

const tree = [
  { id: 1, parentId: null },
  { id: 2, parentId: 1 },
  { id: 3, parentId: 2 },
  { id: 4, parentId: null },
];

describe('expandedIds', () => {
  it('adds all descendants when implicit members are asked for', () => {
    expect(expandedIds(tree, [1], true, 'p', 'category')).toEqual([1, 2, 3]);
    expect(expandedIds(tree, [3, 1], true, 'p', 'category')).toEqual([1, 2, 3]);
    expect(expandedIds(tree, [2, 4], false, 'p', 'category')).toEqual([2, 4]);
  });

  it('refuses ids that name nothing', () => {
    expect(() => expandedIds(tree, [9], false, 'p', 'category')).toThrow('p 9 names no category');
  });
});

describe('SearchPlanner', () => {
  const attribute = (
    id: number,
    typeId: AttributeDefinition['typeId'],
    staticName: string | null = null,
    isKeywordSearchable = false,
  ): AttributeDefinition => ({
    id,
    label: `Attribute ${id}`,
    staticName,
    typeId,
    isReadOnly: false,
    isKeywordSearchable,
    displayOrder: id,
  });
  const attributes = [
    attribute(1, AttributeType.Text, SystemAttribute.Title, true),
    attribute(2, AttributeType.Text, SystemAttribute.OriginalFilename),
    attribute(3, AttributeType.Date, SystemAttribute.DateAdded),
    attribute(4, AttributeType.Text, SystemAttribute.AddedBy),
    attribute(5, AttributeType.Numeric),
    attribute(6, AttributeType.Keywords, null, true),
    attribute(7, AttributeType.AccessLevels, SystemAttribute.AccessLevels),
  ];
  const planner = new SearchPlanner(
    { assetTypes: async () => [{ id: 2, name: 'Image' }] } as unknown as AttributesCatalog,
    { links: async () => tree } as unknown as CategoriesService,
    { links: async () => [{ id: 7, parentId: null }] } as unknown as AccessLevelsService,
    { idsByUsername: async (name: string) => (name === 'ann' ? [11] : []) } as unknown as UsersService,
  );
  const plan = (query: string) =>
    planner.plan(parseSearchCriteria(QueryParams.fromQueryString(query)), attributes);

  it('composes a filter of every criterion', async () => {
    const filter = await plan(
      'keywords=bridge&attribute_5=3.50&attribute_6=river&attribute_4=%20ann%20&attributeQueryConjunction=OR' +
        '&assetIds=3-4&assetTypeId=2&filename=a*.jpg&dateAddedLower=2024-01-01&dateModUpper=2024-02-01' +
        '&descriptiveCategoryForm.categoryIds=1&permissionCategoryForm.categoryIds=7' +
        '&includeImplicitCategoryMembers=true&approvalStatuses=none&unsubmitted=true&parentIds=9',
    );
    expect(filter).toEqual({
      keywords: { query: { kind: 'term', tokens: ['bridge'], prefix: false }, attributeIds: [1, 6] },
      attributes: {
        conjunction: 'OR',
        conditions: [
          { kind: 'equals', attributeId: 5, storedValue: expect.any(String) },
          { kind: 'words', attributeId: 6, query: { kind: 'term', tokens: ['river'], prefix: false } },
          { kind: 'addedBy', userIds: [11] },
        ],
      },
      ids: [{ from: 3, to: 4 }],
      assetType: { id: 2, name: 'Image' },
      filename: { pattern: 'a*.jpg', attributeId: 2 },
      addedAt: [{ op: '>=', at: new Date('2024-01-01T00:00:00Z') }],
      modifiedAt: [{ op: '<', at: new Date('2024-02-02T00:00:00Z') }],
      categoryIds: [1, 2, 3],
      accessLevelIds: [7],
      parentIds: [9],
      approved: false,
      submitted: false,
    });
  });

  it('adds the viewer and reads approvalStatuses=full as approved', async () => {
    const viewer = { actor: { id: 5 }, grants: {} } as never;
    const filter = await planner.plan(
      parseSearchCriteria(QueryParams.fromQueryString('approvalStatuses=full')),
      attributes,
      viewer,
    );
    expect(filter).toEqual({ visibleTo: viewer, approved: true, submitted: true });
    expect(await plan('approvalStatuses=full,none')).toEqual({ submitted: true });
  });

  it('leaves unsubmitted assets out unless unsubmitted=true asks for them alone', async () => {
    expect(await plan('')).toEqual({ submitted: true });
    expect(await plan('unsubmitted=false')).toEqual({ submitted: true });
    expect(await plan('unsubmitted=true')).toEqual({ submitted: false });
    expect(await plan('approvalStatuses=none')).toEqual({ submitted: true, approved: false });
    expect(await plan('unsubmitted=true&approvalStatuses=full')).toEqual({
      submitted: false,
      approved: true,
    });
  });

  it('reads malformed word filters leniently, never refusing them', async () => {
    expect((await plan(`attribute_6=${encodeURIComponent('(river AND')}`)).attributes?.conditions).toEqual([
      { kind: 'words', attributeId: 6, query: { kind: 'term', tokens: ['river'], prefix: false } },
    ]);
    expect((await plan(`attribute_1=${'x'.repeat(1500)}`)).attributes?.conditions).toEqual([
      { kind: 'words', attributeId: 1, query: { kind: 'term', tokens: ['x'.repeat(64)], prefix: false } },
    ]);
  });

  it('makes a word filter with nothing searchable match like *', async () => {
    expect((await plan('attribute_6=%2B%2B')).attributes?.conditions).toEqual([
      { kind: 'words', attributeId: 6, query: { kind: 'all' } },
    ]);
  });

  it.each([
    ['attribute_99=x', 'attribute_99 names no attribute'],
    ['attribute_3=x', 'attribute_3 (Attribute 3) is searched with dateAddedLower and dateAddedUpper'],
    ['attribute_7=x', 'attribute_7 (Attribute 7) is searched with permissionCategoryForm.categoryIds'],
    ['attribute_5=abc', 'attribute_5 (Attribute 5) must be'],
    ['assetTypeId=3', 'assetTypeId 3 names no asset type'],
    ['descriptiveCategoryForm.categoryIds=9', 'descriptiveCategoryForm.categoryIds 9 names no category'],
    ['permissionCategoryForm.categoryIds=8', 'permissionCategoryForm.categoryIds 8 names no access level'],
  ])('refuses %s', async (query, message) => {
    await expect(plan(query)).rejects.toThrow(message);
  });

  it('maps the order to an asset sort', () => {
    const sort = (query: string) =>
      planner.sort(parseSearchOrder(QueryParams.fromQueryString(query)), attributes);
    expect(sort('')).toEqual({ kind: 'id' });
    expect(sort('sortAttributeId=3')).toEqual({ kind: 'addedAt' });
    expect(sort('sortAttributeId=4')).toEqual({ kind: 'addedBy' });
    expect(sort('sortAttributeId=5')).toEqual({ kind: 'value', attributeId: 5, numeric: true });
    expect(sort('sortAttributeId=1')).toEqual({ kind: 'value', attributeId: 1, numeric: false });
    expect(() => sort('sortAttributeId=7')).toThrow('results cannot be sorted by Attribute 7');
    expect(() => sort('sortAttributeId=99')).toThrow('sortAttributeId 99 names no attribute');
  });
});
