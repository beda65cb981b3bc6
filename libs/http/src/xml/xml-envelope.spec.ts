import { DOMParser } from '@xmldom/xmldom';
import * as xpath from 'xpath';
import { xmlMapping, XmlBinding } from './xml-mapping';
import { toXml } from './xml-serializer';

function text(xml: string, path: string): string[] {
  const document = new DOMParser().parseFromString(xml, 'text/xml') as unknown as Node;
  return (xpath.select(path, document) as Node[]).map((node) => node.textContent ?? '');
}

describe('toXml of a list binding with an envelope (asset search with facets)', () => {
  const binding: XmlBinding = {
    kind: 'list',
    wrapper: 'assetSummaries',
    mapping: xmlMapping('assetSummary'),
    envelope: {
      element: 'assetSearch',
      items: { results: 'assetSummary', values: 'facetValue' },
      keyed: { facets: { element: 'facet', key: 'name', value: 'values' } },
    },
  };

  it('writes an array body as the list, unchanged', () => {
    const xml = toXml([{ id: 1 }, { id: 2 }], binding);
    expect(text(xml, '/assetSummaries/assetSummary/id')).toEqual(['1', '2']);
  });

  it('writes an object body as the envelope, keyed fields as named entries', () => {
    const xml = toXml(
      {
        results: [{ id: 7 }],
        total: 1,
        facets: { 'dateAdded:year': [{ value: 2024, label: '2024', count: 1 }], type: [] },
      },
      binding,
    );
    expect(text(xml, '/assetSearch/results/assetSummary/id')).toEqual(['7']);
    expect(text(xml, '/assetSearch/total')).toEqual(['1']);
    expect(text(xml, '/assetSearch/facets/facet/name')).toEqual(['dateAdded:year', 'type']);
    expect(text(xml, '/assetSearch/facets/facet[name="dateAdded:year"]/values/facetValue/count')).toEqual([
      '1',
    ]);
    expect(text(xml, '/assetSearch/facets/facet[name="type"]/values')).toEqual(['']);
  });
});
