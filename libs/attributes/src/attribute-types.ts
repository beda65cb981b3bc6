/** **Contract** (DESIGN §6): the type ids of attributes. 10 and 11 belong to system attributes only. */
export const AttributeType = {
  Text: 1,
  TextArea: 2,
  Date: 3,
  DateTime: 4,
  Time: 5,
  List: 6,
  Keywords: 7,
  Numeric: 8,
  Boolean: 9,
  Categories: 10,
  AccessLevels: 11,
} as const;

export type AttributeTypeId = (typeof AttributeType)[keyof typeof AttributeType];

const ALL_TYPES: ReadonlySet<number> = new Set(Object.values(AttributeType));
const SYSTEM_ONLY_TYPES: ReadonlySet<number> = new Set([
  AttributeType.Categories,
  AttributeType.AccessLevels,
]);

export function isAttributeTypeId(value: number): value is AttributeTypeId {
  return ALL_TYPES.has(value);
}

/** Types that only the seeded system attributes may have. */
export function isSystemOnlyType(typeId: number): boolean {
  return SYSTEM_ONLY_TYPES.has(typeId);
}

/** The static names of the seeded system attributes. */
export const SystemAttribute = {
  Title: 'title',
  Description: 'description',
  Keywords: 'keywords',
  OriginalFilename: 'originalFilename',
  FileSize: 'fileSize',
  DateAdded: 'dateAdded',
  DateLastModified: 'dateLastModified',
  AddedBy: 'addedBy',
  AccessLevels: 'accessLevels',
  Categories: 'categories',
} as const;

export type SystemAttributeName = (typeof SystemAttribute)[keyof typeof SystemAttribute];

/** An attribute as other areas see it, with its label in one language. */
export interface AttributeDefinition {
  id: number;
  /** In the language asked for, falling back to the default language. */
  label: string;
  /** One of SystemAttribute for system attributes, null for custom ones. */
  staticName: string | null;
  typeId: AttributeTypeId;
  isReadOnly: boolean;
  isKeywordSearchable: boolean;
  displayOrder: number;
}

export interface ListValue {
  id: number;
  attributeId: number;
  value: string;
  additionalValue: string | null;
}

/**
 * Where embedded metadata (EXIF, IPTC, XMP) goes, and in which direction it flows. `VIDEO` is what ffmpeg
 * reads of a video (tags Duration in seconds, Width, Height, Codec): it can only be read.
 */
export const EmbeddedDataTypes = ['EXIF', 'IPTC', 'XMP', 'VIDEO'] as const;
export type EmbeddedDataType = (typeof EmbeddedDataTypes)[number];

export const MappingDirections = ['embed-to-attribute', 'attribute-to-embed', 'both'] as const;
export type MappingDirection = (typeof MappingDirections)[number];
