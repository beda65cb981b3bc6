import { KeywordEntity } from '../entities/keyword.entity';
import { KeywordRows } from './keywords.repository';

export interface KeywordNode {
  keyword: KeywordEntity;
  synonyms: string[];
  children: KeywordNode[];
}

/** The keyword forest: top-level keywords with their descendants, siblings sorted by name. */
export function buildKeywordForest({ keywords, synonyms }: KeywordRows): {
  roots: KeywordNode[];
  byId: Map<number, KeywordNode>;
} {
  const byId = new Map<number, KeywordNode>();
  for (const keyword of keywords) {
    byId.set(keyword.id, {
      keyword,
      synonyms: [...(synonyms.get(keyword.id) ?? [])].sort(byText),
      children: [],
    });
  }
  const roots: KeywordNode[] = [];
  for (const node of byId.values()) {
    const parent = node.keyword.parentId === null ? undefined : byId.get(node.keyword.parentId);
    (parent?.children ?? roots).push(node);
  }
  sortByName(roots);
  return { roots, byId };
}

/** True when `candidateId` is `keywordId` itself or one of its descendants. */
export function isSelfOrDescendant(node: KeywordNode, candidateId: number): boolean {
  return (
    node.keyword.id === candidateId || node.children.some((child) => isSelfOrDescendant(child, candidateId))
  );
}

function sortByName(nodes: KeywordNode[]): void {
  nodes.sort((a, b) => byText(a.keyword.name, b.keyword.name) || a.keyword.id - b.keyword.id);
  for (const node of nodes) sortByName(node.children);
}

function byText(a: string, b: string): number {
  return a.localeCompare(b, undefined, { sensitivity: 'base' });
}
