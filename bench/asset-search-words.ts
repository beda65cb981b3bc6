/**
 * Issue 35's rows of the asset-search benchmark: the seed's commonest words (frequency rank 1, 2, 5, 10
 * and 30 of WORDS' 1/r skew), each as the first page with its total, the same sorted by title, three
 * facets on it, the type facet, the region (a list attribute) facet, and an AND with the next word of
 * the vocabulary's top (rank 1 with rank 2, the others with rank 1). `--words` runs only these rows.
 */
import { WORDS } from './asset-search-seed';

export const COMMON_WORD_RANKS = [1, 2, 5, 10, 30];

export function commonWordScenarios(
  titleId: number,
  regionId: number,
  facets: string,
): Array<[string, string]> {
  return COMMON_WORD_RANKS.flatMap((rank): Array<[string, string]> => {
    const word = WORDS[rank - 1];
    const other = rank === 1 ? WORDS[1] : WORDS[0];
    const otherRank = rank === 1 ? 2 : 1;
    return [
      [`word of rank ${rank}`, `keywords=${word}`],
      [`word of rank ${rank} sorted by title`, `keywords=${word}&sortAttributeId=${titleId}`],
      [`word of rank ${rank}, three facets`, `keywords=${word}&facets=${facets}`],
      [`word of rank ${rank}, type facet`, `keywords=${word}&facets=type`],
      [`word of rank ${rank}, region facet`, `keywords=${word}&facets=attribute_${regionId}`],
      [`words of rank ${rank} AND rank ${otherRank}`, `keywords=${word}+${other}`],
    ];
  });
}
