import { Injectable } from '@nestjs/common';
import { isPrivileged, UsersService, Viewer } from '@dam/access';
import { AccessLevelsService } from '@dam/access-levels';
import { AssetFilter, AssetSort, AttributeCondition, parseValue } from '@dam/assets';
import { AttributeDefinition, AttributesCatalog, AttributeType, SystemAttribute } from '@dam/attributes';
import { CategoriesService } from '@dam/categories';
import { subtreeIds, TreeLink } from '@dam/core';
import { InvalidInput } from '@dam/errors';
import { parseKeywordQuery } from './keyword-query';
import { AttributeFilter, SearchCriteria, SearchOrder } from './search-criteria';

/** Attribute types searched word by word through the token index. */
const WORD_TYPES: ReadonlySet<number> = new Set([
  AttributeType.Text,
  AttributeType.TextArea,
  AttributeType.Keywords,
]);

/**
 * No attribute has this id: a filename condition on it matches nothing (as when no original-filename
 * attribute exists).
 */
const NO_ATTRIBUTE = 0;

/**
 * Turns parsed criteria into an AssetFilter, after checking what they name (attributes, categories,
 * access levels, asset types, users). Used by asset search and by publishing actions, so an action's
 * result set is exactly what the same search answers.
 */
@Injectable()
export class SearchPlanner {
  constructor(
    private readonly catalog: AttributesCatalog,
    private readonly categories: CategoriesService,
    private readonly accessLevels: AccessLevelsService,
    private readonly users: UsersService,
  ) {}

  /** The filter of `criteria`; only what `visibleTo` may see when given, every asset otherwise. */
  async plan(
    criteria: SearchCriteria,
    attributes: AttributeDefinition[],
    visibleTo?: Viewer,
  ): Promise<AssetFilter> {
    const needsCategories = criteria.descriptiveCategoryIds.length > 0;
    const needsLevels = criteria.permissionCategoryIds.length > 0;
    const [categoryLinks, levelLinks, assetTypes] = await Promise.all([
      needsCategories ? this.categories.links() : [],
      needsLevels ? this.accessLevels.links() : [],
      criteria.assetTypeId === undefined ? [] : this.catalog.assetTypes(),
    ]);
    const filter: AssetFilter = {};
    if (visibleTo !== undefined) filter.visibleTo = visibleTo;
    if (criteria.assetTypeId !== undefined) {
      const assetType = assetTypes.find((type) => type.id === criteria.assetTypeId);
      if (assetType === undefined)
        throw new InvalidInput(`assetTypeId ${criteria.assetTypeId} names no asset type`);
      filter.assetType = { id: assetType.id, name: assetType.name };
    }
    const implicit = criteria.includeImplicitCategoryMembers;
    if (needsCategories) {
      filter.categoryIds = expandedIds(
        categoryLinks,
        criteria.descriptiveCategoryIds,
        implicit,
        'descriptiveCategoryForm.categoryIds',
        'category',
      );
    }
    if (needsLevels) {
      // A caller who sees only some levels may filter by the others (facets list the levels of what
      // they see), so an id that names no level is answered as a hidden level is: what they see of it,
      // here nothing. A 400 would tell which hidden ids exist. Who sees every level gets the 400.
      const seesEveryLevel = visibleTo === undefined || isPrivileged(visibleTo.actor);
      filter.accessLevelIds = expandedIds(
        levelLinks,
        criteria.permissionCategoryIds,
        implicit,
        'permissionCategoryForm.categoryIds',
        'access level',
        seesEveryLevel,
      );
    }
    if (criteria.keywords !== undefined) {
      filter.keywords = {
        query: criteria.keywords,
        attributeIds: attributes
          .filter((attribute) => attribute.isKeywordSearchable)
          .map((attribute) => attribute.id),
      };
    }
    if (criteria.attributes.length > 0) {
      const byId = new Map(attributes.map((attribute) => [attribute.id, attribute]));
      const conditions: AttributeCondition[] = [];
      // One after the other, so the first bad filter is the one reported.
      for (const attributeFilter of criteria.attributes)
        conditions.push(await this.attributeCondition(attributeFilter, byId));
      filter.attributes = { conjunction: criteria.attributeConjunction, conditions };
    }
    if (criteria.assetIds.length > 0) filter.ids = criteria.assetIds;
    if (criteria.contentSha256.length > 0) filter.contentSha256 = criteria.contentSha256;
    if (criteria.filename !== undefined) {
      const filenameAttribute = attributes.find(
        (attribute) => attribute.staticName === SystemAttribute.OriginalFilename,
      );
      filter.filename = { pattern: criteria.filename, attributeId: filenameAttribute?.id ?? NO_ATTRIBUTE };
    }
    if (criteria.dateAdded.length > 0) filter.addedAt = criteria.dateAdded;
    if (criteria.dateModified.length > 0) filter.modifiedAt = criteria.dateModified;
    if (criteria.parentIds.length > 0) filter.parentIds = criteria.parentIds;
    // Asset Bank's defaults (docs/api-decisions.md, "Asset search"): search filters, not visibility.
    // Submitted assets only, unless unsubmitted=true, which asks for the unsubmitted ones only; `full` is
    // approved (no upload approval and no edit awaited), `none` not approved, both or neither: either.
    filter.submitted = criteria.unsubmitted !== true;
    if (criteria.approvalStatuses.length === 1) filter.approved = criteria.approvalStatuses[0] === 'full';
    return filter;
  }

  sort(order: SearchOrder, attributes: AttributeDefinition[]): AssetSort {
    if (order.sortAttributeId === undefined) return { kind: 'id' };
    const attribute = attributes.find((candidate) => candidate.id === order.sortAttributeId);
    if (attribute === undefined)
      throw new InvalidInput(`sortAttributeId ${order.sortAttributeId} names no attribute`);
    switch (attribute.staticName) {
      case SystemAttribute.DateAdded:
        return { kind: 'addedAt' };
      case SystemAttribute.DateLastModified:
        return { kind: 'modifiedAt' };
      case SystemAttribute.AddedBy:
        return { kind: 'addedBy' };
      case SystemAttribute.AccessLevels:
      case SystemAttribute.Categories:
        throw new InvalidInput(
          `results cannot be sorted by ${attribute.label} (sortAttributeId ${attribute.id})`,
        );
    }
    return { kind: 'value', attributeId: attribute.id, numeric: attribute.typeId === AttributeType.Numeric };
  }

  /** One `attribute_<id>` filter, checked against the attribute's type. */
  private async attributeCondition(
    filter: AttributeFilter,
    attributes: ReadonlyMap<number, AttributeDefinition>,
  ): Promise<AttributeCondition> {
    const attribute = attributes.get(filter.attributeId);
    const name = `attribute_${filter.attributeId}`;
    if (attribute === undefined) throw new InvalidInput(`${name} names no attribute`);
    switch (attribute.staticName) {
      case SystemAttribute.DateAdded:
        throw new InvalidInput(
          `${name} (${attribute.label}) is searched with dateAddedLower and dateAddedUpper`,
        );
      case SystemAttribute.DateLastModified:
        throw new InvalidInput(`${name} (${attribute.label}) is searched with dateModLower and dateModUpper`);
      case SystemAttribute.AccessLevels:
        throw new InvalidInput(
          `${name} (${attribute.label}) is searched with permissionCategoryForm.categoryIds`,
        );
      case SystemAttribute.Categories:
        throw new InvalidInput(
          `${name} (${attribute.label}) is searched with descriptiveCategoryForm.categoryIds`,
        );
      case SystemAttribute.AddedBy:
        return { kind: 'addedBy', userIds: await this.users.idsByUsername(filter.value.trim()) };
    }
    if (WORD_TYPES.has(attribute.typeId)) {
      // Read as leniently as keywords (never a 400); nothing searchable left is no condition, as `*` is.
      const query = parseKeywordQuery(filter.value) ?? { kind: 'all' };
      return { kind: 'words', attributeId: attribute.id, query };
    }
    const parsed = parseValue(attribute.typeId, filter.value);
    if (!parsed.ok) throw new InvalidInput(`${name} (${attribute.label}) must be ${parsed.expected}`);
    return { kind: 'equals', attributeId: attribute.id, storedValue: parsed.stored };
  }
}

/** The ids asked for, each checked to exist (unless told not to), with all their descendants (in id order) when `implicit`. */
export function expandedIds(
  links: readonly TreeLink[],
  ids: number[],
  implicit: boolean,
  parameter: string,
  what: string,
  /** False: an unknown id is kept (it matches no asset) instead of refused. */
  refuseUnknown = true,
): number[] {
  const known = new Set(links.map((link) => link.id));
  for (const id of ids) {
    if (refuseUnknown && !known.has(id)) throw new InvalidInput(`${parameter} ${id} names no ${what}`);
  }
  if (!implicit) return ids;
  const result = new Set<number>();
  for (const id of ids) for (const found of subtreeIds(links, id)) result.add(found);
  return [...result].sort((a, b) => a - b);
}
