import { AttributesCatalog, AttributeType, SystemAttribute } from '@dam/attributes';
import { TestApp } from './helpers/test-app';

describe('attributes', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start();
  });

  afterAll(async () => {
    await t?.close();
  });

  describe('the catalog', () => {
    it('holds the seeded system attributes with ids 1..10', async () => {
      const catalog = t.app.get(AttributesCatalog);
      const all = await catalog.all('en');
      expect(all.slice(0, 10).map((attribute) => [attribute.id, attribute.staticName, attribute.typeId])).toEqual([
        [1, SystemAttribute.Title, AttributeType.Text],
        [2, SystemAttribute.Description, AttributeType.TextArea],
        [3, SystemAttribute.Keywords, AttributeType.Keywords],
        [4, SystemAttribute.OriginalFilename, AttributeType.Text],
        [5, SystemAttribute.FileSize, AttributeType.Numeric],
        [6, SystemAttribute.DateAdded, AttributeType.DateTime],
        [7, SystemAttribute.DateLastModified, AttributeType.DateTime],
        [8, SystemAttribute.AddedBy, AttributeType.Text],
        [9, SystemAttribute.AccessLevels, AttributeType.AccessLevels],
        [10, SystemAttribute.Categories, AttributeType.Categories],
      ]);
      expect(await catalog.byStaticName(SystemAttribute.FileSize, 'en')).toMatchObject({
        label: 'File size',
        isReadOnly: true,
      });
      expect(await catalog.byId(1, 'en')).toMatchObject({ label: 'Title', isKeywordSearchable: true });
      expect(await catalog.byId(999, 'en')).toBeUndefined();
      expect(await catalog.listValues(1)).toEqual([]);
      expect(await catalog.assetTypes()).toEqual([
        { id: 1, name: 'File' },
        { id: 2, name: 'Image' },
        { id: 3, name: 'Video' },
        { id: 4, name: 'Audio' },
      ]);
      expect(await catalog.assetTypeExists(4)).toBe(true);
      expect(await catalog.assetTypeExists(5)).toBe(false);
      expect(await catalog.embeddedDataMappings()).toEqual(
        expect.arrayContaining([
          { type: 'EXIF', tagName: 'ImageDescription', attributeId: 2, mappingDirection: 'embed-to-attribute' },
          { type: 'IPTC', tagName: 'Keywords', attributeId: 3, mappingDirection: 'embed-to-attribute' },
          { type: 'XMP', tagName: 'dc:title', attributeId: 1, mappingDirection: 'embed-to-attribute' },
        ]),
      );
    });
  });
});
