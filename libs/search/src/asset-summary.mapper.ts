import { Injectable } from '@nestjs/common';
import { AssetMapper, AssetState } from '@dam/assets';
import { AssetTypeDefinition, AttributeDefinition, SystemAttribute } from '@dam/attributes';
import { XmlMapping, xmlMapping } from '@dam/http';
import type { FacetValue } from './search-facets';

/** One search result (issue 7): the asset in brief, with absolute URLs. */
export interface AssetSummary {
  id: number;
  originalFilename: string;
  fullAssetUrl: string;
  /** The SHA-256 of the current content (lower-case hex), null without content: what a batch of digests found. */
  contentSha256: string | null;
  thumbnailUrl: string;
  previewUrl: string;
  unwatermarkedLargeImageUrl: string;
  dateLastModifiedTimestamp: number;
  approved: boolean;
  typeId: number | null;
  typeName: string;
  accessLevelIds: string;
  displayAttributes: Array<{ label: string; value: string }>;
  attributes: Array<{ name: string; value: string }>;
}

/** XML (DESIGN §3): `<assetSummary>`, `<displayAttributes><displayAttribute>`, `<attributes><attribute>`. */
export const ASSET_SUMMARY_XML = xmlMapping('assetSummary', {
  displayAttributes: 'displayAttribute',
  attributes: 'attribute',
});

/** The answer with `facets=`: the page, the total (unless count=false) and the counts per facet. */
export interface AssetSearchEnvelope {
  results: AssetSummary[];
  total?: number;
  facets: Record<string, FacetValue[]>;
}

/**
 * XML of the envelope: `<assetSearch><results><assetSummary>…</results><total/><facets><facet><name/>
 * <values><facetValue><value/><url/><label/><count/></facetValue>…</values></facet>…</facets></assetSearch>`.
 */
export const ASSET_SEARCH_XML: XmlMapping = {
  element: 'assetSearch',
  items: {
    results: 'assetSummary',
    values: 'facetValue',
    displayAttributes: 'displayAttribute',
    attributes: 'attribute',
  },
  keyed: { facets: { element: 'facet', key: 'name', value: 'values' } },
};

/** What every summary of one response shares. */
export interface SummaryContext {
  attributes: AttributeDefinition[];
  /** Storage key of the language read ('' for the default). */
  languageKey: string;
  displayAttributeIds: number[];
  assetTypes: AssetTypeDefinition[];
}

/**
 * Builds summaries on top of the asset representation, so values read exactly as `GET /rest/assets/{id}`
 * shows them (formats, translations, derived attributes).
 */
@Injectable()
export class AssetSummaryMapper {
  constructor(private readonly assets: AssetMapper) {}

  toSummary(state: AssetState, context: SummaryContext): AssetSummary {
    const representation = this.assets.toRepresentation(state, context.attributes, context.languageKey);
    const values = new Map(representation.attributes.map((attribute) => [Number(attribute.id), attribute]));
    const filename = context.attributes.find(
      (attribute) => attribute.staticName === SystemAttribute.OriginalFilename,
    );
    const { asset } = state;
    const type =
      context.assetTypes.find((candidate) => candidate.id === asset.assetTypeId) ??
      context.assetTypes.find((candidate) => candidate.name === asset.type);
    return {
      id: asset.id,
      originalFilename: filename === undefined ? '' : (values.get(filename.id)?.value ?? ''),
      fullAssetUrl: representation.url,
      contentSha256: representation.contentSha256,
      thumbnailUrl: representation.thumbnailUrl,
      previewUrl: representation.previewUrl,
      unwatermarkedLargeImageUrl: representation.unwatermarkedLargeImageUrl,
      dateLastModifiedTimestamp: asset.updatedAt.getTime(),
      approved: representation.approved,
      typeId: type?.id ?? null,
      typeName: type?.name ?? asset.type,
      accessLevelIds: representation.accessLevelIds,
      displayAttributes: context.displayAttributeIds.flatMap((id) => {
        const attribute = values.get(id);
        return attribute === undefined ? [] : [{ label: attribute.name, value: attribute.value }];
      }),
      attributes: representation.attributes.map(({ name, value }) => ({ name, value })),
    };
  }
}
