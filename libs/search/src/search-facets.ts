import { Injectable } from '@nestjs/common';
import { AccessLevelsService } from '@dam/access-levels';
import { AssetFacet, AssetFacetCount } from '@dam/assets';
import { AssetTypeDefinition, AttributeDefinition, SystemAttribute } from '@dam/attributes';
import { CategoriesService } from '@dam/categories';
import { InvalidInput } from '@dam/errors';
import { QueryParams, UrlService, parseWholeNumber } from '@dam/http';

export const DEFAULT_FACET_LIMIT = 20;
export const MAX_FACET_LIMIT = 1000;

/** One value of a facet: what to filter by, its resource (categories, levels, types), its label, the count. */
export interface FacetValue {
  value: number | string;
  url?: string;
  label: string;
  count: number;
}

/** `facets=` names: categories, accessLevels, type, attribute_<id>, dateAdded:year. */
export interface FacetRequest {
  name: string;
  facet: AssetFacet;
}

/** System attributes whose values are not stored as values (they have their own facets or none). */
const DERIVED: ReadonlySet<string> = new Set([
  SystemAttribute.DateAdded,
  SystemAttribute.DateLastModified,
  SystemAttribute.AddedBy,
  SystemAttribute.AccessLevels,
  SystemAttribute.Categories,
]);

const NAMES = 'categories, accessLevels, type, attribute_<id> or dateAdded:year';

/** The facets asked for (none: the plain array answer), checked against the attributes. */
export function parseFacets(params: QueryParams, attributes: AttributeDefinition[]): FacetRequest[] {
  const requests: FacetRequest[] = [];
  for (const name of new Set(params.list('facets'))) {
    requests.push({ name, facet: facetOf(name, attributes) });
  }
  return requests;
}

export function parseFacetLimit(params: QueryParams): number {
  const raw = params.single('facetLimit');
  return parseWholeNumber(raw, 'facetLimit', { min: 1, max: MAX_FACET_LIMIT }) ?? DEFAULT_FACET_LIMIT;
}

function facetOf(name: string, attributes: AttributeDefinition[]): AssetFacet {
  switch (name) {
    case 'categories':
      return { kind: 'category' };
    case 'accessLevels':
      return { kind: 'accessLevel' };
    case 'type':
      return { kind: 'assetType' };
    case 'dateAdded:year':
      return { kind: 'addedYear' };
  }
  const match = /^attribute_(\d{1,10})$/.exec(name);
  const short = name.length > 60 ? `${name.slice(0, 60)}...` : name;
  if (match === null) throw new InvalidInput(`facets: "${short}" is not a facet; use ${NAMES}`);
  const attribute = attributes.find((candidate) => candidate.id === Number(match[1]));
  if (attribute === undefined) throw new InvalidInput(`facets: ${name} names no attribute`);
  if (
    attribute.staticName !== null &&
    attribute.staticName !== undefined &&
    DERIVED.has(attribute.staticName)
  )
    throw new InvalidInput(
      `facets: ${name} (${attribute.label}) is not a facet; use categories, accessLevels or dateAdded:year`,
    );
  return { kind: 'attribute', attributeId: attribute.id };
}

/** Labels and URLs of the counted values, from the owners of categories, levels and asset types. */
@Injectable()
export class FacetLabels {
  constructor(
    private readonly categories: CategoriesService,
    private readonly accessLevels: AccessLevelsService,
    private readonly urls: UrlService,
  ) {}

  async label(
    requests: FacetRequest[],
    counts: AssetFacetCount[][],
    assetTypes: AssetTypeDefinition[],
    limit: number,
  ): Promise<Record<string, FacetValue[]>> {
    const idsOf = (kind: AssetFacet['kind']) =>
      requests.flatMap((request, i) =>
        request.facet.kind === kind ? counts[i].map((count) => Number(count.value)) : [],
      );
    const [categoryNames, levelNames] = await Promise.all([
      idsOf('category').length === 0 ? new Map<number, string>() : this.categories.names(idsOf('category')),
      idsOf('accessLevel').length === 0
        ? new Map<number, string>()
        : this.accessLevels.names(idsOf('accessLevel')),
    ]);
    const result: Record<string, FacetValue[]> = {};
    requests.forEach((request, i) => {
      const rows = counts[i];
      switch (request.facet.kind) {
        case 'category':
          result[request.name] = rows.map(({ value, count }) => ({
            value,
            url: this.urls.rest('categories', value),
            label: categoryNames.get(Number(value)) ?? String(value),
            count,
          }));
          break;
        case 'accessLevel':
          result[request.name] = rows.map(({ value, count }) => ({
            value,
            url: this.urls.rest('access-levels', value),
            label: levelNames.get(Number(value)) ?? String(value),
            count,
          }));
          break;
        case 'assetType':
          result[request.name] = this.assetTypeValues(rows, assetTypes).slice(0, limit);
          break;
        case 'attribute':
          result[request.name] = rows.map(({ value, count }) => ({ value, label: String(value), count }));
          break;
        case 'addedYear':
          result[request.name] = rows.map(({ value, count }) => ({ value, label: String(value), count }));
          break;
      }
    });
    return result;
  }

  /**
   * Asset types as the `assetTypeId` filter reads them: an asset without a type id counts for the asset
   * type named like its content type (`File`, `Image`, ...), or under that name when none is.
   */
  private assetTypeValues(rows: AssetFacetCount[], assetTypes: AssetTypeDefinition[]): FacetValue[] {
    const merged = new Map<number | string, number>();
    for (const { value, count } of rows) {
      const type =
        typeof value === 'number'
          ? assetTypes.find((candidate) => candidate.id === value)
          : assetTypes.find((candidate) => candidate.name === value);
      const key = type?.id ?? value;
      merged.set(key, (merged.get(key) ?? 0) + count);
    }
    return [...merged]
      .map(([value, count]) => {
        const type =
          typeof value === 'number' ? assetTypes.find((candidate) => candidate.id === value) : undefined;
        return type === undefined
          ? { value, label: String(value), count }
          : { value, url: this.urls.rest('asset-types', type.id), label: type.name, count };
      })
      .sort((x, y) => y.count - x.count || String(x.value).localeCompare(String(y.value)));
  }
}
