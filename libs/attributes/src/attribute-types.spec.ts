import {
  AttributeType,
  EmbeddedDataTypes,
  isAttributeTypeId,
  isSystemOnlyType,
  MappingDirections,
  SystemAttribute,
} from './attribute-types';

describe('attribute type ids (DESIGN §6 contract)', () => {
  it.each([
    [1, 'Text'],
    [2, 'TextArea'],
    [3, 'Date'],
    [4, 'DateTime'],
    [5, 'Time'],
    [6, 'List'],
    [7, 'Keywords'],
    [8, 'Numeric'],
    [9, 'Boolean'],
    [10, 'Categories'],
    [11, 'AccessLevels'],
  ])('type id %i is %s', (id, name) => {
    expect(AttributeType[name as keyof typeof AttributeType]).toBe(id);
    expect(isAttributeTypeId(id)).toBe(true);
  });

  it('has exactly the eleven contract ids, none shared', () => {
    const ids = Object.values(AttributeType);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });

  it.each([0, 12, -1, 1.5, 100, Number.NaN, Number.POSITIVE_INFINITY])('rejects %p as a type id', (value) => {
    expect(isAttributeTypeId(value)).toBe(false);
  });
});

describe('system-only types', () => {
  it.each([
    [AttributeType.Categories, true],
    [AttributeType.AccessLevels, true],
    [AttributeType.Text, false],
    [AttributeType.TextArea, false],
    [AttributeType.Date, false],
    [AttributeType.DateTime, false],
    [AttributeType.Time, false],
    [AttributeType.List, false],
    [AttributeType.Keywords, false],
    [AttributeType.Numeric, false],
    [AttributeType.Boolean, false],
  ])('type %i is system-only: %p', (typeId, expected) => {
    expect(isSystemOnlyType(typeId)).toBe(expected);
  });

  it.each([0, 12, -10])('an id outside the contract (%i) is not called system-only', (typeId) => {
    expect(isSystemOnlyType(typeId)).toBe(false);
  });
});

describe('seeded system attributes', () => {
  it('have the ten static names of DESIGN §6, each distinct', () => {
    const names = Object.values(SystemAttribute);
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort()).toEqual(
      [
        'accessLevels',
        'addedBy',
        'categories',
        'dateAdded',
        'dateLastModified',
        'description',
        'fileSize',
        'keywords',
        'originalFilename',
        'title',
      ].sort(),
    );
  });
});

describe('embedded-data vocabularies (docs/api-decisions.md)', () => {
  it('accepts exactly the EXIF, IPTC and XMP standards and VIDEO facts, upper case as stored', () => {
    expect([...EmbeddedDataTypes].sort()).toEqual(['EXIF', 'IPTC', 'VIDEO', 'XMP']);
    for (const type of EmbeddedDataTypes) expect(type).toBe(type.toUpperCase());
  });

  it('lists embed-to-attribute first: the service uses the first direction as the default', () => {
    expect(MappingDirections[0]).toBe('embed-to-attribute');
    expect([...MappingDirections].sort()).toEqual(['attribute-to-embed', 'both', 'embed-to-attribute']);
  });
});
