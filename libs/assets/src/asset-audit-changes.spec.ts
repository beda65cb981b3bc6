import { AttributesCatalog } from '@dam/attributes';
import { auditChanges, EditedState } from './asset-audit-changes';
import { AssetChanges } from './asset-changes';

const catalog = {
  byIds: async (ids: number[]) => ids.filter((id) => id === 1).map((id) => ({ id, label: 'Title' })),
} as unknown as AttributesCatalog;

const before: EditedState = {
  values: [
    { attributeId: 1, language: '', value: 'old' },
    { attributeId: 1, language: 'de', value: 'alt' },
  ],
  accessLevelIds: [1, 2],
  categoryIds: [],
  parentIds: [],
};

describe('auditChanges: the before and after of an asset edit', () => {
  it.each<[string, AssetChanges, object]>([
    [
      'a new title',
      { values: [{ attributeId: 1, language: '', value: 'new' }] },
      { Title: { before: 'old', after: 'new' } },
    ],
    [
      'a removed translation',
      { values: [{ attributeId: 1, language: 'de', value: null }] },
      { 'Title (de)': { before: 'alt', after: null } },
    ],
    [
      'a value of an attribute without a label',
      { values: [{ attributeId: 7, language: '', value: 'x' }] },
      { 'attribute 7': { before: null, after: 'x' } },
    ],
    ['levels in another order only', { values: [], accessLevelIds: [2, 1] }, {}],
    [
      'new levels and categories',
      { values: [], accessLevelIds: [3], categoryIds: [5] },
      { accessLevels: { before: [1, 2], after: [3] }, categories: { before: [], after: [5] } },
    ],
  ])('%s', async (_case, changes, expected) => {
    expect(await auditChanges(catalog, 'en', before, changes)).toEqual(expected);
  });
});
