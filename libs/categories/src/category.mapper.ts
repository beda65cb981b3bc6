import { Injectable } from '@nestjs/common';
import { TreeNode } from '@dam/core';
import { UrlService, xmlMapping } from '@dam/http';

/** A category with its texts in the language the request reads. */
export interface LocalizedCategory {
  id: number;
  parentId: number | null;
  name: string;
  description: string | null;
}

/** GET /rest/categories/{id} (not shown by the spec; designed like the access level, 2.1). */
export interface CategoryRepresentation {
  url: string;
  id: number;
  name: string;
  description: string | null;
  parent: string | null;
  children: CategoryRepresentation[];
}

/** Spec 2.3: `parent` only on non-root nodes, `count` only when asked for. */
export interface CategorySearchNode {
  id: number;
  name: string;
  description: string | null;
  parent?: string;
  children: CategorySearchNode[];
  count?: number;
}

/** XML (DESIGN §3): `<category>`, its `<children><category>`. */
export const CATEGORY_XML = xmlMapping('category', { children: 'category' });

@Injectable()
export class CategoryMapper {
  constructor(private readonly urls: UrlService) {}

  url(id: number): string {
    return this.urls.rest('categories', id);
  }

  toRepresentation(node: TreeNode<LocalizedCategory>): CategoryRepresentation {
    const { id, name, description, parentId } = node.item;
    return {
      url: this.url(id),
      id,
      name,
      description,
      parent: parentId === null ? null : this.url(parentId),
      children: node.children.map((child) => this.toRepresentation(child)),
    };
  }

  /** With `counts`, every node carries a count (0 when none of its assets are visible). */
  toSearchNode(node: TreeNode<LocalizedCategory>, counts?: ReadonlyMap<number, number>): CategorySearchNode {
    const { id, name, description, parentId } = node.item;
    const result: CategorySearchNode = {
      id,
      name,
      description,
      ...(parentId === null ? {} : { parent: this.url(parentId) }),
      children: node.children.map((child) => this.toSearchNode(child, counts)),
    };
    if (counts !== undefined) result.count = counts.get(id) ?? 0;
    return result;
  }
}
