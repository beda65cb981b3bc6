import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiQuery } from '@nestjs/swagger';

class LabelledValueSchema {
  @ApiProperty()
  label: string;
  @ApiProperty()
  value: string;
}

class NamedValueSchema {
  @ApiProperty()
  name: string;
  @ApiProperty()
  value: string;
}

/** OpenAPI schema of `AssetSummary`: one search result. */
export class AssetSummarySchema {
  @ApiProperty()
  id: number;
  @ApiProperty()
  originalFilename: string;
  @ApiProperty({ format: 'uri' })
  fullAssetUrl: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'the SHA-256 of the current content, lower-case hex; null without content',
  })
  contentSha256: string | null;
  @ApiProperty({ format: 'uri' })
  thumbnailUrl: string;
  @ApiProperty({ format: 'uri' })
  previewUrl: string;
  @ApiProperty({ format: 'uri' })
  unwatermarkedLargeImageUrl: string;
  @ApiProperty({ description: 'milliseconds since the epoch' })
  dateLastModifiedTimestamp: number;
  @ApiProperty()
  approved: boolean;
  @ApiProperty({ type: Number, nullable: true })
  typeId: number | null;
  @ApiProperty()
  typeName: string;
  @ApiProperty({ description: 'comma-separated access level ids' })
  accessLevelIds: string;
  @ApiProperty({ type: [LabelledValueSchema] })
  displayAttributes: LabelledValueSchema[];
  @ApiProperty({ type: [NamedValueSchema] })
  attributes: NamedValueSchema[];
}

const text = (name: string, description: string) =>
  ApiQuery({ name, required: false, type: String, description });
const ids = (name: string, description: string) =>
  ApiQuery({ name, required: false, type: [Number], description, style: 'form', explode: true });
const flag = (name: string, description: string) =>
  ApiQuery({ name, required: false, type: Boolean, description });

/**
 * The criteria of `GET /rest/asset-search` (read from the raw query string: arrays come repeated,
 * comma-joined or as `a[n]`). `attribute_<id>=<value>` filters on an attribute; unknown parameters are
 * ignored.
 */
export function ApiAssetSearchQuery(): MethodDecorator {
  return applyDecorators(
    text('keywords', 'a keyword query'),
    ApiQuery({ name: 'attributeQueryConjunction', required: false, enum: ['AND', 'OR'] }),
    ApiQuery({
      name: 'assetIds',
      required: false,
      type: [String],
      description: 'ids or ranges `a-b`',
      style: 'form',
      explode: true,
    }),
    ApiQuery({ name: 'assetTypeId', required: false, type: Number }),
    ApiQuery({
      name: 'contentSha256',
      required: false,
      schema: {
        type: 'array',
        maxItems: 40,
        items: { type: 'string', pattern: '^[0-9a-fA-F]{64}$' },
      },
      style: 'form',
      explode: true,
      description:
        'the SHA-256 of the current content, 64 hex digits in either case; repeated (or comma-joined) for ' +
        'assets with any of up to 40 digests, each result showing its contentSha256',
    }),
    text('filename', 'the original file name'),
    text('dateAddedLower', 'ISO 8601'),
    text('dateAddedUpper', 'ISO 8601'),
    text('dateModLower', 'ISO 8601'),
    text('dateModUpper', 'ISO 8601'),
    ids('descriptiveCategoryForm.categoryIds', 'descriptive category ids'),
    ids('permissionCategoryForm.categoryIds', 'permission category (access level) ids'),
    flag('includeImplicitCategoryMembers', 'also the members of sub-categories'),
    ApiQuery({
      name: 'approvalStatuses',
      required: false,
      type: [String],
      enum: ['full', 'none'],
      style: 'form',
      explode: true,
    }),
    flag('unsubmitted', 'the unsubmitted assets instead of the submitted ones'),
    ids('parentIds', 'parent asset ids'),
    ApiQuery({ name: 'sortAttributeId', required: false, type: Number }),
    flag('sortDescending', 'descending order'),
    ApiQuery({ name: 'page', required: false, schema: { type: 'integer', minimum: 0 } }),
    ApiQuery({ name: 'pageSize', required: false, schema: { type: 'integer', minimum: 1 } }),
  );
}
