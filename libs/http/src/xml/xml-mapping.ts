import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiProduces } from '@nestjs/swagger';

/**
 * How one representation (a JSON object) is written as XML: the element it becomes, and the element
 * name of the items of each of its array fields where the generic rule (`itemElementName`) is not
 * enough. The mapping of a representation is declared next to its JSON mapper.
 */
export interface XmlMapping {
  readonly element: string;
  /** Array field name -> item element name, e.g. `{ children: 'category' }`. Applies at any depth. */
  readonly items?: Readonly<Record<string, string>>;
  /**
   * Fields holding an object whose keys are data, not names (`facets: {"dateAdded:year": [...]}`): each
   * entry is written as an `element` with the key in a `key` child and the value in a `value` child.
   */
  readonly keyed?: Readonly<Record<string, { element: string; key: string; value: string }>>;
}

/** What a handler's body is: one representation, a list of them under a plural wrapper, or URLs. */
export type XmlBinding =
  | { readonly kind: 'object'; readonly mapping: XmlMapping }
  | {
      readonly kind: 'list';
      readonly wrapper: string;
      readonly mapping: XmlMapping;
      /** How the body is written when the handler answers an object (an envelope) instead of the list. */
      readonly envelope?: XmlMapping;
    }
  | { readonly kind: 'json-only' };

export const XML_BINDING = 'dam:xml-binding';

export function xmlMapping(element: string, items?: Record<string, string>): XmlMapping {
  return items === undefined ? { element } : { element, items };
}

const PRODUCES = ApiProduces('application/json', 'application/xml');

/** The body is one representation, written as the element `mapping` names (e.g. `<asset>`). */
export function XmlRoot(mapping: XmlMapping | string): MethodDecorator {
  const resolved = typeof mapping === 'string' ? xmlMapping(mapping) : mapping;
  return applyDecorators(SetMetadata(XML_BINDING, { kind: 'object', mapping: resolved }), PRODUCES);
}

/**
 * The body is an array of representations: `<wrapper><element>…</element>…</wrapper>`; or, when the
 * handler answers an object instead (an envelope such as `{results, total, facets}`), that object as
 * `envelope` says.
 */
export function XmlList(
  wrapper: string,
  mapping: XmlMapping | string,
  envelope?: XmlMapping,
): MethodDecorator {
  const resolved = typeof mapping === 'string' ? xmlMapping(mapping) : mapping;
  const binding =
    envelope === undefined
      ? { kind: 'list', wrapper, mapping: resolved }
      : { kind: 'list', wrapper, mapping: resolved, envelope };
  return applyDecorators(SetMetadata(XML_BINDING, binding), PRODUCES);
}

/** The body is an array of absolute URLs: `<urls><url>…</url>…</urls>`. */
export function XmlUrls(): MethodDecorator {
  return XmlList('urls', 'url');
}

/** JSON whatever the `Accept` (the OAuth endpoints speak RFC 6749 JSON, health is for probes). */
export function JsonOnly(): ClassDecorator & MethodDecorator {
  return SetMetadata(XML_BINDING, { kind: 'json-only' });
}

/**
 * Item element names for array fields the representation's mapping does not name. Strings that are
 * absolute URLs are `url`, other strings `value`; objects take the singular of the field name.
 */
const DEFAULT_ITEM_NAMES: Readonly<Record<string, string>> = {
  attributes: 'attribute',
  displayAttributes: 'displayAttribute',
  parents: 'url',
  urls: 'url',
  accessLevels: 'accessLevel',
  categories: 'category',
  accessLevelPermissions: 'accessLevelPermission',
  permissions: 'permission',
  groupIds: 'groupId',
  synonyms: 'synonym',
  events: 'event',
};

export function itemElementName(field: string, items: readonly unknown[], mapping?: XmlMapping): string {
  const named = mapping?.items?.[field] ?? DEFAULT_ITEM_NAMES[field];
  if (named !== undefined) return named;
  if (items.length > 0 && items.every((item) => typeof item === 'string')) {
    return items.every((item) => /^https?:\/\//.test(item as string)) ? 'url' : 'value';
  }
  if (/ies$/.test(field)) return field.replace(/ies$/, 'y');
  if (/[^s]s$/.test(field)) return field.slice(0, -1);
  return 'item';
}

/** True when `field` holds a list in this mapping (for reading XML back). */
export function isListField(field: string, mapping?: XmlMapping): boolean {
  return mapping?.items?.[field] !== undefined || DEFAULT_ITEM_NAMES[field] !== undefined;
}
