import { buildForest, TreeNode } from '@dam/core';
import { KeywordEntity } from '../entities/keyword.entity';
import { KeywordRows } from './keywords.repository';

/** A keyword in its attribute's tree (platform's tree helper), with its synonyms. */
export interface KeywordNode extends TreeNode<KeywordEntity> {
  synonyms: string[];
  children: KeywordNode[];
}

/**
 * The keyword forest (platform's buildForest): top-level keywords with their descendants, siblings sorted
 * by name, and every node by id. A keyword whose parent is not among the rows is shown at top level;
 * rows caught in a cycle (data edited by hand) are left out.
 */
export function buildKeywordForest({ keywords, synonyms }: KeywordRows): {
  roots: KeywordNode[];
  byId: Map<number, KeywordNode>;
} {
  const byId = new Map<number, KeywordNode>();
  const dress = ({ item, children }: TreeNode<KeywordEntity>): KeywordNode => {
    const node: KeywordNode = {
      item,
      synonyms: [...(synonyms.get(item.id) ?? [])].sort(byText),
      children: sortedByName(children.map(dress)),
    };
    byId.set(item.id, node);
    return node;
  };
  return { roots: sortedByName(buildForest(keywords).map(dress)), byId };
}

function sortedByName(nodes: KeywordNode[]): KeywordNode[] {
  return nodes.sort((a, b) => byText(a.item.name, b.item.name) || a.item.id - b.item.id);
}

function byText(a: string, b: string): number {
  return a.localeCompare(b, undefined, { sensitivity: 'base' });
}
