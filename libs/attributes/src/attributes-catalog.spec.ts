import { CacheGenerations } from '@dam/database';
import { LanguageService } from '@dam/i18n';
import { AssetTypesRepository } from './asset-types/asset-types.repository';
import { AttributeType } from './attribute-types';
import { AttributesCatalog } from './attributes-catalog';
import { AttributeDefinitions } from './attributes/attribute-definitions';
import { AttributesRepository } from './attributes/attributes.repository';
import { EmbeddedDataMappingsRepository } from './embedded-data-mappings/embedded-data-mappings.repository';
import { AttributeEntity } from './entities/attribute.entity';
import { ListValuesRepository } from './list-values/list-values.repository';

/** No database: the catalog's collaborators are replaced by in-memory fakes. */
const AT = new Date('2024-01-01T00:00:00Z');

function attribute(id: number, label: string, extra: Partial<AttributeEntity> = {}): AttributeEntity {
  return {
    id,
    label,
    staticName: null,
    typeId: AttributeType.Text,
    isSystem: false,
    isReadOnly: false,
    isKeywordSearchable: false,
    displayOrder: id,
    createdAt: AT,
    updatedAt: AT,
    ...extra,
  };
}

function setup({
  rows = [] as AttributeEntity[],
  translations = {} as Record<string, Record<number, string>>,
} = {}) {
  const byId = new Map(rows.map((row) => [row.id, row]));
  const attributes = {
    findAll: jest.fn(async () => rows),
    findById: jest.fn(async (id: number) => byId.get(id) ?? null),
    findByIds: jest.fn(async (ids: number[]) => rows.filter((row) => ids.includes(row.id))),
    findByStaticName: jest.fn(async (name: string) => rows.find((row) => row.staticName === name) ?? null),
    translatedLabels: jest.fn(async (ids: number[], language: string) => {
      const labels = translations[language] ?? {};
      return new Map(ids.filter((id) => id in labels).map((id) => [id, labels[id]]));
    }),
  };
  const listValues = {
    find: jest.fn(async (attributeId: number) =>
      attributeId === 6
        ? [
            { id: 61, attributeId: 6, value: 'Red', additionalValue: null, createdAt: AT },
            { id: 62, attributeId: 6, value: 'Blue', additionalValue: '#00f', createdAt: AT },
          ]
        : [],
    ),
  };
  const mappings = {
    findAll: jest.fn(async () => [
      {
        id: 1,
        type: 'EXIF',
        tagName: 'ImageDescription',
        displayName: 'Image description',
        mappingDirection: 'embed-to-attribute',
        attributeId: 2,
        createdAt: AT,
        updatedAt: AT,
      },
    ]),
  };
  const assetTypes = {
    findAll: jest.fn(async () => [
      { id: 1, name: 'File', createdAt: AT },
      { id: 2, name: 'Image', createdAt: AT },
    ]),
    findById: jest.fn(async (id: number) => (id === 1 ? { id: 1, name: 'File', createdAt: AT } : null)),
  };
  const languages = { isDefault: (language: string) => language === 'en' };
  const generations = {
    stamp: async () => '1',
    stampNow: () => '1',
    peek: () => '1',
  } as unknown as CacheGenerations;
  const catalog = new AttributesCatalog(
    new AttributeDefinitions(
      attributes as unknown as AttributesRepository,
      languages as unknown as LanguageService,
      generations,
    ),
    attributes as unknown as AttributesRepository,
    listValues as unknown as ListValuesRepository,
    mappings as unknown as EmbeddedDataMappingsRepository,
    assetTypes as unknown as AssetTypesRepository,
    generations,
  );
  return { catalog, attributes, listValues };
}

describe('AttributesCatalog', () => {
  const rows = [
    attribute(1, 'Title', { staticName: 'title', isReadOnly: false, isKeywordSearchable: true }),
    attribute(2, 'Description', { staticName: 'description', typeId: AttributeType.TextArea }),
    attribute(3, 'Colour', { typeId: AttributeType.List, displayOrder: 9 }),
  ];
  const translations = { de: { 1: 'Titel', 3: 'Farbe' } };

  describe('labels', () => {
    it.each([
      ['the default language', 'en', ['Title', 'Description', 'Colour']],
      ['a translated language, falling back per attribute', 'de', ['Titel', 'Description', 'Farbe']],
      ['a language with no translations at all', 'fr', ['Title', 'Description', 'Colour']],
    ])('in %s', async (_case, language, labels) => {
      const { catalog } = setup({ rows, translations });
      expect((await catalog.all(language)).map((definition) => definition.label)).toEqual(labels);
    });

    it('does not look translations up for the default language', async () => {
      const { catalog, attributes } = setup({ rows, translations });
      await catalog.all('en');
      expect(attributes.translatedLabels).not.toHaveBeenCalled();
    });

    it('looks every label up in one call for another language', async () => {
      const { catalog, attributes } = setup({ rows, translations });
      await catalog.all('de');
      expect(attributes.translatedLabels).toHaveBeenCalledTimes(1);
      expect(attributes.translatedLabels).toHaveBeenCalledWith([1, 2, 3], 'de');
    });
  });

  it('describes an attribute with exactly the fields other areas use', async () => {
    const { catalog } = setup({ rows, translations });
    expect(await catalog.byId(3, 'de')).toEqual({
      id: 3,
      label: 'Farbe',
      staticName: null,
      typeId: AttributeType.List,
      isReadOnly: false,
      isKeywordSearchable: false,
      displayOrder: 9,
    });
  });

  it.each([0, -1, 12, 99])('shows a stored type id outside the contract (%i) as text', async (typeId) => {
    const { catalog } = setup({ rows: [attribute(5, 'Odd', { typeId })] });
    expect((await catalog.byId(5, 'en'))?.typeId).toBe(AttributeType.Text);
  });

  it.each([AttributeType.Categories, AttributeType.AccessLevels, AttributeType.Keywords])(
    'keeps a contract type id (%i) as it is',
    async (typeId) => {
      const { catalog } = setup({ rows: [attribute(5, 'System', { typeId })] });
      expect((await catalog.byId(5, 'en'))?.typeId).toBe(typeId);
    },
  );

  it.each([
    ['byId', (catalog: AttributesCatalog) => catalog.byId(404, 'en')],
    ['byStaticName', (catalog: AttributesCatalog) => catalog.byStaticName('nope', 'en')],
  ])('%s gives undefined for an unknown attribute', async (_case, lookup) => {
    const { catalog } = setup({ rows });
    await expect(lookup(catalog)).resolves.toBeUndefined();
  });

  it('finds a system attribute by its static name', async () => {
    const { catalog } = setup({ rows, translations });
    expect((await catalog.byStaticName('title', 'de'))?.label).toBe('Titel');
  });

  it('asks for each id once in byIds and leaves unknown ids out', async () => {
    const { catalog, attributes } = setup({ rows });
    const found = await catalog.byIds([3, 1, 3, 404, 1], 'en');
    expect(attributes.findByIds).toHaveBeenCalledWith([3, 1, 404]);
    expect(found.map((definition) => definition.id).sort()).toEqual([1, 3]);
  });

  it('byIds of nothing is nothing', async () => {
    const { catalog } = setup({ rows });
    await expect(catalog.byIds([], 'de')).resolves.toEqual([]);
  });

  it('lists the values of a list attribute with the attribute id, without timestamps', async () => {
    const { catalog } = setup({ rows });
    expect(await catalog.listValues(6)).toEqual([
      { id: 61, attributeId: 6, value: 'Red', additionalValue: null },
      { id: 62, attributeId: 6, value: 'Blue', additionalValue: '#00f' },
    ]);
    await expect(catalog.listValues(1)).resolves.toEqual([]);
  });

  it('gives embedded-data mappings as type, tag, attribute and direction only', async () => {
    const { catalog } = setup({ rows });
    expect(await catalog.embeddedDataMappings()).toEqual([
      { type: 'EXIF', tagName: 'ImageDescription', attributeId: 2, mappingDirection: 'embed-to-attribute' },
    ]);
  });

  it('lists asset types as id and name', async () => {
    const { catalog } = setup();
    expect(await catalog.assetTypes()).toEqual([
      { id: 1, name: 'File' },
      { id: 2, name: 'Image' },
    ]);
  });
});
