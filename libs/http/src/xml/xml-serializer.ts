import { Builder } from 'xml2js';
import { itemElementName, XmlBinding, XmlMapping } from './xml-mapping';

export const XSI_NAMESPACE = 'http://www.w3.org/2001/XMLSchema-instance';

/**
 * Writes a JSON body as XML (DESIGN §3): fields are child elements named as the JSON keys; a nested
 * array is a wrapper named after the field holding item elements (`itemElementName`); null is an empty
 * element with `xsi:nil="true"`; booleans and numbers are their JSON text; undefined fields are left out.
 */
export function toXml(body: unknown, binding: XmlBinding | undefined): string {
  const [rootName, content] = rootOf(body, binding);
  const root: Record<string, unknown> = isPlainObject(content) ? { ...content } : { _: content };
  root.$ = { ...(root.$ as object | undefined), 'xmlns:xsi': XSI_NAMESPACE };
  const builder = new Builder({
    rootName,
    xmldec: { version: '1.0', encoding: 'UTF-8', standalone: true },
    renderOpts: { pretty: false },
  });
  return builder.buildObject(root);
}

function rootOf(body: unknown, binding: XmlBinding | undefined): [string, unknown] {
  if (Array.isArray(body)) {
    if (binding?.kind === 'list') {
      return [
        binding.wrapper,
        { [binding.mapping.element]: body.map((item) => node(item, binding.mapping)) },
      ];
    }
    const strings = body.every((item) => typeof item === 'string');
    return strings
      ? ['urls', { url: body.map((item) => node(item)) }]
      : ['items', { item: body.map((item) => node(item)) }];
  }
  if (binding?.kind === 'list' && binding.envelope !== undefined)
    return [binding.envelope.element, node(body, binding.envelope)];
  if (binding?.kind === 'object' || binding?.kind === 'list')
    return [binding.mapping.element, node(body, binding.mapping)];
  return ['response', node(body)];
}

/** The xml2js object of one value. */
function node(value: unknown, mapping?: XmlMapping): unknown {
  if (value === null || value === undefined) return { $: { 'xsi:nil': 'true' } };
  if (typeof value === 'string') return clean(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return { item: value.map((item) => node(item, mapping)) };
  if (isPlainObject(value)) {
    const element: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value)) {
      if (field === undefined) continue;
      const name = elementName(key);
      const keyed = mapping?.keyed?.[key];
      if (keyed !== undefined && isPlainObject(field)) {
        const entries = Object.entries(field).map(([k, v]) => ({ [keyed.key]: k, [keyed.value]: v }));
        element[name] =
          entries.length === 0 ? '' : { [keyed.element]: entries.map((entry) => node(entry, mapping)) };
      } else if (Array.isArray(field)) {
        const item = itemElementName(key, field, mapping);
        element[name] = field.length === 0 ? '' : { [item]: field.map((entry) => node(entry, mapping)) };
      } else {
        element[name] = node(field, mapping);
      }
    }
    return element;
  }
  return clean(String(value));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** JSON keys are element names; a key that is not an XML name (never in our representations) is made one. */
function elementName(key: string): string {
  if (key !== '$' && key !== '_' && /^[A-Za-z_][\w.-]*$/.test(key) && !/^xml/i.test(key)) return key;
  return `_${key.replace(/[^\w.-]/g, '_')}`;
}

/** Characters XML 1.0 cannot carry (control characters, lone surrogates) become U+FFFD. */
const NOT_XML =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function clean(text: string): string {
  return text.replace(NOT_XML, '\uFFFD');
}
