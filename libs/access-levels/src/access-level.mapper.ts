import { Injectable } from '@nestjs/common';
import { UrlService, xmlMapping } from '@dam/http';
import { AccessLevelView } from './access-level.reader';

/** Spec 2.1. */
export interface AccessLevelRepresentation {
  url: string;
  id: number;
  name: string;
  description: string | null;
  parent: string | null;
  imageUrl: string;
  isAlwaysAssignable: boolean;
  hasPermissions: boolean;
  isSelectedOnLoad: boolean;
  isBrowsable: boolean;
  showPromotedItems: boolean;
  showRecentItems: boolean;
  isStatic: boolean;
  children: AccessLevelRepresentation[];
  count: number;
}

/** Spec 2.2: `id` is a string; `parent`, `children` and `count` appear only when they apply. */
export interface AccessLevelSearchNode {
  id: string;
  name: string;
  parent?: string;
  children?: AccessLevelSearchNode[];
  count?: number;
}

/** XML (DESIGN §3): `<accessLevel>`, its `<children><accessLevel>`. */
export const ACCESS_LEVEL_XML = xmlMapping('accessLevel', { children: 'accessLevel' });

@Injectable()
export class AccessLevelMapper {
  constructor(private readonly urls: UrlService) {}

  url(id: number): string {
    return this.urls.rest('access-levels', id);
  }

  toRepresentation(view: AccessLevelView): AccessLevelRepresentation {
    const { level } = view;
    return {
      url: this.url(level.id),
      id: level.id,
      name: view.name,
      description: view.description,
      parent: level.parentId === null ? null : this.url(level.parentId),
      imageUrl: this.urls.rest('access-levels', level.id, 'image'),
      isAlwaysAssignable: level.isAlwaysAssignable,
      hasPermissions: level.parentId === null || level.hasPermissions,
      isSelectedOnLoad: level.isSelectedOnLoad,
      isBrowsable: level.isBrowsable,
      showPromotedItems: level.showPromotedItems,
      showRecentItems: level.showRecentItems,
      isStatic: level.isStatic,
      children: view.children.map((child) => this.toRepresentation(child)),
      count: view.count ?? 0,
    };
  }

  toSearchNode(view: AccessLevelView): AccessLevelSearchNode {
    const node: AccessLevelSearchNode = { id: String(view.level.id), name: view.name };
    if (view.level.parentId !== null) node.parent = this.url(view.level.parentId);
    if (view.children.length > 0) node.children = view.children.map((child) => this.toSearchNode(child));
    if (view.count !== undefined) node.count = view.count;
    return node;
  }
}
