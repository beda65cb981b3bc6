import { DOMParser } from '@xmldom/xmldom';
import * as xpath from 'xpath';

const select = xpath.useNamespaces({ xsi: 'http://www.w3.org/2001/XMLSchema-instance' });

/** Parses an XML answer strictly (any parser error fails the test). */
export function parseXml(xml: string): Document {
  const parser = new DOMParser({
    onError: (level, message) => {
      if (level !== 'warning') throw new Error(`invalid XML (${message}): ${xml.slice(0, 300)}`);
    },
  });
  return parser.parseFromString(xml, 'text/xml') as unknown as Document;
}

/** The nodes an XPath expression selects. */
export function nodes(document: Document | Node, path: string): Node[] {
  return select(path, document as unknown as Node) as Node[];
}

/** The text of every node selected. */
export function texts(document: Document | Node, path: string): string[] {
  return nodes(document, path).map((node) => node.textContent ?? '');
}

/** The text of the one node selected. */
export function textOf(document: Document | Node, path: string): string {
  const found = texts(document, path);
  if (found.length !== 1) throw new Error(`${path} selects ${found.length} nodes`);
  return found[0];
}
