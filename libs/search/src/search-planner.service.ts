import { Injectable } from '@nestjs/common';
import { AttributeDefinition, AttributesCatalog, AttributeType, SystemAttribute } from '@dam/attributes';
import { InvalidInput } from '@dam/platform';
import { AssetSearchRepository, SearchSort, SearchSql, TreeNode } from './asset-search.repository';
import { SearchContext, searchConditions, SqlParams } from './search-conditions';
import { SearchCriteria, SearchOrder } from './search-criteria';

/**
 * Turns parsed criteria into SQL, after checking what they name (attributes, categories, access levels,
 * asset types) against the database. Used by asset search and by publishing actions, so an action's
 * result set is exactly what the same search answers.
 */
@Injectable()
export class SearchPlanner {
  constructor(
    private readonly repository: AssetSearchRepository,
    private readonly catalog: AttributesCatalog,
  ) {}

  async plan(criteria: SearchCriteria, attributes: AttributeDefinition[]): Promise<SearchSql> {
    const params = new SqlParams();
    const where = searchConditions(criteria, await this.context(criteria, attributes), params);
    return { where, params: params.values };
  }

  sort(order: SearchOrder, attributes: AttributeDefinition[]): SearchSort {
    if (order.sortAttributeId === undefined) return { kind: 'id' };
    const attribute = attributes.find((candidate) => candidate.id === order.sortAttributeId);
    if (attribute === undefined)
      throw new InvalidInput(`sortAttributeId ${order.sortAttributeId} names no attribute`);
    switch (attribute.staticName) {
      case SystemAttribute.DateAdded:
        return { kind: 'column', column: 'created_at' };
      case SystemAttribute.DateLastModified:
        return { kind: 'column', column: 'updated_at' };
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

  private async context(criteria: SearchCriteria, attributes: AttributeDefinition[]): Promise<SearchContext> {
    const needsCategories = criteria.descriptiveCategoryIds.length > 0;
    const needsLevels = criteria.permissionCategoryIds.length > 0;
    const [categories, levels, assetTypes] = await Promise.all([
      needsCategories ? this.repository.categoryTree() : [],
      needsLevels ? this.repository.accessLevelTree() : [],
      criteria.assetTypeId === undefined ? [] : this.catalog.assetTypes(),
    ]);
    const implicit = criteria.includeImplicitCategoryMembers;
    let assetType: SearchContext['assetType'];
    if (criteria.assetTypeId !== undefined) {
      assetType = assetTypes.find((type) => type.id === criteria.assetTypeId);
      if (assetType === undefined)
        throw new InvalidInput(`assetTypeId ${criteria.assetTypeId} names no asset type`);
    }
    return {
      attributes: new Map(attributes.map((attribute) => [attribute.id, attribute])),
      keywordAttributeIds: attributes
        .filter((attribute) => attribute.isKeywordSearchable)
        .map((attribute) => attribute.id),
      filenameAttributeId: attributes.find(
        (attribute) => attribute.staticName === SystemAttribute.OriginalFilename,
      )?.id,
      categoryIds: matchedIds(
        categories,
        criteria.descriptiveCategoryIds,
        implicit,
        'descriptiveCategoryForm.categoryIds',
        'category',
      ),
      accessLevelIds: matchedIds(
        levels,
        criteria.permissionCategoryIds,
        implicit,
        'permissionCategoryForm.categoryIds',
        'access level',
      ),
      assetType,
    };
  }
}

/** The ids asked for, each checked to exist, with all their descendants when `implicit`. */
export function matchedIds(
  nodes: TreeNode[],
  ids: number[],
  implicit: boolean,
  parameter: string,
  what: string,
): number[] {
  const known = new Set(nodes.map((node) => node.id));
  for (const id of ids) if (!known.has(id)) throw new InvalidInput(`${parameter} ${id} names no ${what}`);
  if (!implicit) return ids;
  const children = new Map<number, number[]>();
  for (const node of nodes) {
    if (node.parentId !== null)
      children.set(node.parentId, [...(children.get(node.parentId) ?? []), node.id]);
  }
  const result = new Set<number>();
  const pending = [...ids];
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    if (result.has(id)) continue;
    result.add(id);
    pending.push(...(children.get(id) ?? []));
  }
  return [...result].sort((a, b) => a - b);
}
