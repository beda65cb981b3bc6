import { DOMParser } from '@xmldom/xmldom';
import * as xpath from 'xpath';
import { xmlMapping } from './xml-mapping';
import { readXmlRepresentation } from './xml-reader';
import { toXml, XSI_NAMESPACE } from './xml-serializer';

const select = xpath.useNamespaces({ xsi: XSI_NAMESPACE });

function parse(xml: string): Document {
  return new DOMParser().parseFromString(xml, 'text/xml') as unknown as Document;
}

function text(document: Document, path: string): string[] {
  return (select(path, document as unknown as Node) as Node[]).map((node) => node.textContent ?? '');
}

describe('toXml', () => {
  const mapping = xmlMapping('category', { children: 'category' });

  it('writes fields as child elements, nested lists under a wrapper, null as xsi:nil', () => {
    const xml = toXml(
      {
        url: 'http://x/rest/categories/1',
        id: 1,
        flag: true,
        description: null,
        children: [{ id: 2, children: [] }],
        parents: ['http://x/rest/assets/3'],
        nothing: undefined,
      },
      { kind: 'object', mapping },
    );
    const document = parse(xml);
    expect(text(document, '/category/id')).toEqual(['1']);
    expect(text(document, '/category/flag')).toEqual(['true']);
    expect(select('/category/description/@xsi:nil', document as unknown as Node)).toHaveLength(1);
    expect(text(document, '/category/children/category/id')).toEqual(['2']);
    expect(text(document, '/category/parents/url')).toEqual(['http://x/rest/assets/3']);
    expect(select('/category/nothing', document as unknown as Node)).toHaveLength(0);
  });

  it('writes a list under its plural wrapper, URLs as <urls><url>', () => {
    const list = parse(toXml([{ id: 1 }, { id: 2 }], { kind: 'list', wrapper: 'categories', mapping }));
    expect(text(list, '/categories/category/id')).toEqual(['1', '2']);
    expect(text(list, '//category')).toHaveLength(2);
    const urls = parse(toXml(['http://x/a', 'http://x/b'], undefined));
    expect(text(urls, '/urls/url')).toEqual(['http://x/a', 'http://x/b']);
    const empty = parse(toXml([], { kind: 'list', wrapper: 'categories', mapping }));
    expect(select('/categories/*', empty as unknown as Node)).toHaveLength(0);
  });

  it('escapes markup and replaces characters XML cannot carry', () => {
    const document = parse(toXml({ name: '<b>&"\u0001' }, { kind: 'object', mapping }));
    expect(text(document, '/category/name')).toEqual(['<b>&"\uFFFD']);
  });
});

describe('readXmlRepresentation', () => {
  const mapping = xmlMapping('asset', { attributes: 'attribute', parents: 'url' });

  it('reads back what toXml wrote', async () => {
    const body = {
      id: 7,
      submitted: true,
      parents: ['http://x/rest/assets/1'],
      attributes: [{ id: '3', name: 'Title', value: '' }],
      assetTypeUrl: null,
    };
    expect(await readXmlRepresentation(toXml(body, { kind: 'object', mapping }), mapping)).toEqual({
      id: '7',
      submitted: 'true',
      parents: ['http://x/rest/assets/1'],
      attributes: [{ id: '3', name: 'Title', value: '' }],
      assetTypeUrl: null,
    });
  });

  it('refuses entities, other roots and malformed documents', async () => {
    await expect(
      readXmlRepresentation('<!DOCTYPE a [<!ENTITY x "y">]><asset>&x;</asset>', mapping),
    ).rejects.toThrow('DOCTYPE or ENTITY');
    await expect(readXmlRepresentation('<other/>', mapping)).rejects.toThrow('root element asset');
    await expect(readXmlRepresentation('<asset>', mapping)).rejects.toThrow('could not be parsed');
  });
});
