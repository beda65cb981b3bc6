import { parseStringPromise } from 'xml2js';
import { InvalidInput } from '@dam/errors';
import { isListField, XmlMapping } from './xml-mapping';

/**
 * Reads an XML representation written by `toXml` back to its JSON shape: child elements become fields,
 * a field the mapping knows as a list becomes an array of its item elements, `xsi:nil="true"` is null,
 * every other leaf is its text (strings: the readers of request bodies accept `"true"` and `"42"`). A
 * document type or entity declaration is refused before any parsing, so no entity is ever resolved.
 */
export async function readXmlRepresentation(
  xml: string,
  mapping: XmlMapping,
): Promise<Record<string, unknown>> {
  const root = await parseRoot(xml, mapping.element);
  const value = read(first(root), mapping);
  return isRecord(value) ? value : {};
}

/** Reads a list written by `toXml` (`<wrapper><element>…</element>…</wrapper>`) back to its JSON shape. */
export async function readXmlList(xml: string, wrapper: string, mapping: XmlMapping): Promise<unknown[]> {
  const root = first(await parseRoot(xml, wrapper));
  const items = isRecord(root) ? root[mapping.element] : undefined;
  return Array.isArray(items) ? items.map((item) => read(item, mapping)) : [];
}

async function parseRoot(xml: string, element: string): Promise<unknown> {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) {
    throw new InvalidInput('XML documents with a DOCTYPE or ENTITY declaration are not accepted');
  }
  let document: unknown;
  try {
    document = await parseStringPromise(xml, {
      explicitArray: true,
      explicitRoot: true,
      explicitCharkey: true,
      strict: true,
      xmlns: false,
    });
  } catch {
    throw new InvalidInput('the XML request body could not be parsed');
  }
  const root = isRecord(document) ? document[element] : undefined;
  if (root === undefined) throw new InvalidInput(`the XML request must have the root element ${element}`);
  return root;
}

function read(node: unknown, mapping: XmlMapping): unknown {
  if (!isRecord(node)) return typeof node === 'string' ? node : '';
  const attributes = isRecord(node.$) ? node.$ : {};
  if (attributes['xsi:nil'] === 'true') return null;
  const fields = Object.keys(node).filter((key) => key !== '$' && key !== '_');
  if (fields.length === 0) return typeof node._ === 'string' ? node._ : '';
  const object: Record<string, unknown> = {};
  for (const field of fields) {
    const child = first(node[field]);
    object[field] = isListField(field, mapping) ? readList(child, mapping) : read(child, mapping);
  }
  return object;
}

function readList(node: unknown, mapping: XmlMapping): unknown {
  if (!isRecord(node)) return [];
  if (isRecord(node.$) && node.$['xsi:nil'] === 'true') return null;
  const items: unknown[] = [];
  for (const key of Object.keys(node)) {
    if (key === '$' || key === '_') continue;
    const children = node[key];
    if (Array.isArray(children)) items.push(...children.map((child) => read(child, mapping)));
  }
  return items;
}

function first(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
