import { applyDecorators } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiOkResponse,
  ApiProperty,
  ApiPropertyOptional,
  ApiQuery,
  getSchemaPath,
} from '@nestjs/swagger';
import { DEFAULT_FACET_LIMIT, MAX_FACET_LIMIT } from './search-facets';
import { AssetSummarySchema } from './search.api';

/** OpenAPI schema of one facet value (`FacetValue`). */
export class FacetValueSchema {
  @ApiProperty({
    oneOf: [{ type: 'integer' }, { type: 'string' }],
    description:
      'what to filter by: a category, access level or asset type id, an attribute value, a year (an asset ' +
      'type without an id: the content type name)',
  })
  value: number | string;
  @ApiPropertyOptional({ format: 'uri', description: 'the category, access level or asset type' })
  url?: string;
  @ApiProperty()
  label: string;
  @ApiProperty({ description: 'matching assets the caller may see with this value' })
  count: number;
}

/** OpenAPI schema of the answer with `facets=`. */
export class AssetSearchEnvelopeSchema {
  @ApiProperty({ type: [AssetSummarySchema] })
  results: AssetSummarySchema[];
  @ApiPropertyOptional({ description: 'absent with count=false' })
  total?: number;
  @ApiProperty({
    description:
      'by facet name as asked (`categories`, `accessLevels`, `type`, `attribute_<id>`, `dateAdded:year`): ' +
      'the values with the most matching assets, most first. XML: `<facets><facet><name/><values>' +
      '<facetValue/>...</values></facet>...</facets>`',
    type: 'object',
    additionalProperties: { type: 'array', items: { $ref: getSchemaPath(FacetValueSchema) } },
  })
  facets: Record<string, FacetValueSchema[]>;
}

/** `cursor`, `count`, `facets`, `facetLimit` and the two shapes of the answer. */
export function ApiAssetSearchPaging(): MethodDecorator {
  return applyDecorators(
    ApiExtraModels(FacetValueSchema, AssetSearchEnvelopeSchema, AssetSummarySchema),
    ApiQuery({
      name: 'cursor',
      required: false,
      type: String,
      description:
        'opaque: where the next page starts (keyset paging; a deep page costs what the first does). Take it ' +
        'from the `Link` rel="next" URL, which every page with a successor carries; it belongs to the search ' +
        'it came from (400 otherwise). `page` then only numbers the links',
    }),
    ApiQuery({
      name: 'count',
      required: false,
      type: Boolean,
      description: 'false: no total (no `X-Total-Count`, no rel="last"), which saves counting a broad result',
    }),
    ApiQuery({
      name: 'facets',
      required: false,
      type: [String],
      style: 'form',
      explode: false,
      description:
        'categories, accessLevels, type, attribute_<id>, dateAdded:year: answer the envelope ' +
        "`{results, total, facets}` with the counts per value over the same assets (the caller's visible " +
        'ones). Without it the answer is the plain array',
    }),
    ApiQuery({
      name: 'facetLimit',
      required: false,
      schema: { type: 'integer', minimum: 1, maximum: MAX_FACET_LIMIT, default: DEFAULT_FACET_LIMIT },
      description: 'values per facet (the most frequent)',
    }),
    ApiOkResponse({
      description:
        'One page (a plain array; with `facets=`, the envelope); `X-Total-Count` and `Link` ' +
        '(first, prev, next with its `cursor`, last) say the rest',
      schema: {
        oneOf: [
          { type: 'array', items: { $ref: getSchemaPath(AssetSummarySchema) } },
          { $ref: getSchemaPath(AssetSearchEnvelopeSchema) },
        ],
      },
    }),
  );
}
