import { Injectable } from '@nestjs/common';
import { Viewer } from '@dam/access';
import { AssetFilter } from '../ports/asset-filter';
import { AssetFacet, AssetFacetCount } from '../ports/asset-queries.port';
import { visibleLevelSets, VisibleLevelSets, visibleThroughLevels } from '../rules/asset-visibility';
import { AssetCountRepository } from './asset-count.repository';
import { CompiledFilter } from './asset-filter.sql';
import { AssetFacetsRepository } from './asset-facets.repository';
import { AssetTalliesRepository, Tally } from './asset-tallies.repository';
import { AssetWordTalliesRepository, CountedPlaces, WordTally } from './asset-word-tallies.repository';
import { assetTypeKey, assetTypeOfKey, FACET_TALLIES } from '../tallies/asset-level-sets';
import { idSetText } from '../tallies/id-set-key';

/** Beyond this many sets of levels, a viewer's visibility is probed per asset instead (levelSetsOf). */
const MAX_LEVEL_SETS = 1000;

/**
 * What the tallies answer for a search (asset_tallies, FACET_TALLIES): the total and the category,
 * access level, year and type facets of a filter with no condition but visibility (and some categories or
 * levels), and the sets of levels a viewer who sees only some levels is tested against.
 */
@Injectable()
export class TalliedCounts {
  constructor(
    private readonly tallies: AssetTalliesRepository,
    private readonly counts: AssetCountRepository,
    private readonly facetsRepository: AssetFacetsRepository,
    private readonly words: AssetWordTalliesRepository,
  ) {}

  /** The word tallies of the filter's one word (see `singleWord`). */
  wordTallies(word: string): Promise<WordTally[]> {
    return this.words.tallies(word);
  }

  /**
   * How many assets with the filter's one word (`singleWord`) its viewer may see, from the word's tallies:
   * every row whose levels and state pass `visibleThroughLevels` and whose attributes holding the word
   * include a searched one, plus the viewer's own uploads with the word that would not pass it.
   */
  async wordTotal(filter: AssetFilter, rows: WordTally[]): Promise<number> {
    const viewer = filter.visibleTo;
    const counted = wordCountedBy(filter);
    const word = singleWord(filter);
    let total =
      viewer === undefined || viewer.grants.all || word === undefined
        ? 0
        : await this.counts.countOwnHiddenWord(
            viewer,
            filter.submitted,
            word,
            filter.keywords?.attributeIds ?? [],
          );
    for (const row of rows) if (counted(row)) total += row.assets;
    return total;
  }

  /**
   * The facets of the filter's one word as `wordTotal` counts it, plus the viewer's own uploads with the
   * word that would not pass it: the access levels from its tallies (a set of levels to each of its
   * levels), the categories and years from its rows of the WORD_FACET_TALLIES in the places its counted
   * tallies name (summed by the database, a row per value back; no match is read).
   */
  async wordFacets(
    filter: AssetFilter,
    word: string,
    facets: TalliedAssetFacet[],
    rows: WordTally[],
    limit: number,
  ): Promise<AssetFacetCount[][]> {
    if (facets.length === 0) return [];
    const viewer = filter.visibleTo;
    const counted = wordCountedBy(filter);
    const { submitted, keywords } = filter;
    const places = countedPlaces(rows, counted);
    const [ownHidden, ...perFacet] = await Promise.all([
      viewer === undefined || viewer.grants.all
        ? []
        : this.ownHiddenFacets(
            this.counts.ownHiddenWordFilter(viewer, submitted, word, keywords?.attributeIds ?? []),
            facets,
          ),
      ...facets.map(async (facet): Promise<Array<{ value: number; assets: number }>> =>
        facet.kind === 'accessLevel'
          ? rows
              .filter(counted)
              .flatMap((row) => row.accessLevelIds.map((value) => ({ value, assets: row.assets })))
          : (await this.words.facetCounts(word, facet.kind, places)).map(({ value, count }) => ({
              value,
              assets: count,
            })),
      ),
    ]);
    return perFacet.map((values, i) => facetTop(facets[i], values, ownHidden[i] ?? [], limit));
  }

  /**
   * The tallies, read once for what needs them: the total of a search with no condition but visibility,
   * and the sets of levels a viewer who sees only some levels is tested against.
   */
  async talliesFor(filter: AssetFilter, tallied: boolean): Promise<Tally[] | undefined> {
    const viewer = filter.visibleTo;
    const partial = viewer !== undefined && !viewer.grants.all;
    return tallied || partial ? this.tallies.tallies() : undefined;
  }

  /**
   * The sets of levels the filter's viewer sees assets through (none when they see everything). Past
   * MAX_LEVEL_SETS sets the list would cost more than the probe of each asset's levels it replaces.
   */
  levelSetsOf(filter: AssetFilter, tallies: Tally[] | undefined): VisibleLevelSets | undefined {
    const viewer = filter.visibleTo;
    if (viewer === undefined || viewer.grants.all || tallies === undefined) return undefined;
    const sets = visibleLevelSets(viewer, tallies);
    return sets.always.length + sets.live.length > MAX_LEVEL_SETS ? undefined : sets;
  }

  /**
   * How many assets the filter's viewer may see (of one `submitted` state when the filter names it, in
   * some of its categories or levels when it names them), from the tallies: every tally whose levels and
   * state pass `visibleThroughLevels` (and whose set has one of the filter's levels), plus the viewer's
   * own uploads in scope that would not pass it (the uploader always sees their own). Summing categories'
   * tallies counts an asset once per category it is in: the repeats are taken off, from the few assets in
   * two of them.
   */
  async total(filter: AssetFilter, tallies: Tally[], sets?: VisibleLevelSets): Promise<number> {
    const viewer = filter.visibleTo;
    const { submitted, categoryIds, accessLevelIds } = filter;
    const levels = accessLevelIds === undefined ? undefined : new Set(accessLevelIds);
    const counted = countedBy(filter);
    const [ownHidden, rows, repeated] = await Promise.all([
      viewer === undefined || viewer.grants.all
        ? 0
        : this.counts.countOwnHidden(viewer, { submitted, categoryIds, accessLevelIds }),
      categoryIds === undefined ? tallies : this.tallies.facetTallies('category', categoryIds),
      categoryIds === undefined ? 0 : this.counts.repeatedCategoryLinks(categoryIds, viewer, submitted, sets),
    ]);
    let total = ownHidden - repeated;
    for (const tally of rows) {
      if (levels !== undefined && !tally.accessLevelIds.some((id) => levels.has(id))) continue;
      if (counted(tally)) total += tally.assets;
    }
    return total;
  }

  /**
   * Facets of everything the filter's viewer may see, from the tallies: each tally whose levels and state
   * pass `visibleThroughLevels` adds its assets to its value (a set of levels to each of its levels), plus
   * the viewer's own uploads that would not pass it, grouped from their rows (the uploader always sees
   * their own; they are few). The same numbers as grouping the matches, most first, top `limit`.
   */
  async facets(
    filter: AssetFilter,
    facets: TalliedAssetFacet[],
    tallies: Tally[],
    limit: number,
  ): Promise<AssetFacetCount[][]> {
    if (facets.length === 0) return [];
    const viewer = filter.visibleTo;
    const seesAll = viewer === undefined || viewer.grants.all;
    const counted = countedBy(filter);
    const [ownHidden, ...perFacet] = await Promise.all([
      seesAll
        ? []
        : this.ownHiddenFacets(this.counts.ownHiddenFilter(viewer, { submitted: filter.submitted }), facets),
      ...facets.map((facet) =>
        facet.kind === 'accessLevel'
          ? tallies.flatMap((tally) => tally.accessLevelIds.map((value) => ({ ...tally, value })))
          : this.tallies.facetTallies(facet.kind),
      ),
    ]);
    return perFacet.map((rows, i) => facetTop(facets[i], rows.filter(counted), ownHidden[i] ?? [], limit));
  }

  /**
   * The facets of the viewer's own uploads that they would not see through their levels, uncut: the few
   * matches first (through the uploader's index), then their links (SQLite would otherwise start a join
   * of `asset_categories` from every category link: 350 ms at 1M for a viewer with none).
   */
  private async ownHiddenFacets(
    ownHidden: CompiledFilter,
    facets: TalliedAssetFacet[],
  ): Promise<AssetFacetCount[][]> {
    const counted = await this.facetsRepository.facets(ownHidden, facets, Number.MAX_SAFE_INTEGER);
    return counted.counts;
  }
}

export type TalliedAssetFacet = Extract<
  AssetFacet,
  { kind: 'category' | 'accessLevel' | 'addedYear' | 'assetType' }
>;

/**
 * The facets the tallies count: categories, years and types (FACET_TALLIES), and access levels
 * (asset_tallies).
 */
export function isTalliedFacet(facet: AssetFacet): facet is TalliedAssetFacet {
  return facet.kind === 'accessLevel' || facet.kind in FACET_TALLIES;
}

/**
 * A tallied facet's top `limit` values (`topCounts`). The type facet's values are tallied as keys
 * (`assetTypeKey`): the extra counts are keyed alike, and the keys turned back into what the facet shows
 * (a type id, or a content type's name), all of them: the caller merges types and content types of the
 * same name (they are few).
 */
function facetTop(
  facet: TalliedAssetFacet,
  rows: Array<{ value: number; assets: number }>,
  extra: AssetFacetCount[],
  limit: number,
): AssetFacetCount[] {
  if (facet.kind !== 'assetType') return topCounts(rows, extra, limit);
  const keyed = extra.map(({ value, count }) => ({
    value: typeof value === 'number' ? value : assetTypeKey(null, value),
    count,
  }));
  return topCounts(rows, keyed, Number.MAX_SAFE_INTEGER).map(({ value, count }) => ({
    value: assetTypeOfKey(Number(value)),
    count,
  }));
}

/** The share of the library's assets that the viewer sees through their levels, by the tallies. */
export function shareSeenBy(viewer: Viewer | undefined, tallies: Tally[]): number {
  const seen = countedBy({ visibleTo: viewer });
  let all = 0;
  let visible = 0;
  for (const tally of tallies) {
    all += tally.assets;
    if (seen(tally)) visible += tally.assets;
  }
  return all === 0 ? 1 : visible / all;
}

/** The values' counts summed (each row's assets to its value, then `extra`), most first, top `limit`. */
function topCounts(
  rows: Array<{ value: number; assets: number }>,
  extra: AssetFacetCount[],
  limit: number,
): AssetFacetCount[] {
  const sums = new Map<number, number>();
  for (const { value, assets } of rows) sums.set(value, (sums.get(value) ?? 0) + assets);
  for (const { value, count } of extra) sums.set(Number(value), (sums.get(Number(value)) ?? 0) + count);
  return [...sums]
    .filter(([, count]) => count > 0)
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || a.value - b.value)
    .slice(0, Math.trunc(limit));
}

/**
 * The one word of a filter whose total the word tallies count: no condition but visibility, `submitted`
 * and keywords of one word of one token (not a prefix); undefined otherwise.
 */
export function singleWord(filter: AssetFilter): string | undefined {
  const { keywords, ...rest } = filter;
  if (keywords === undefined || !onlyVisibility(rest)) return undefined;
  const query = keywords.query;
  return query.kind === 'term' && !query.prefix && query.tokens.length === 1 ? query.tokens[0] : undefined;
}

/**
 * The places (set of levels, state; attributes holding the word) of a word's tallies that `counted`
 * keeps, as the conditions of its facet tallies' rows: whether a row counts depends on its place and on
 * its attributes apart, so the counted rows are those in a counted place and a counted set of attributes.
 * A side every row of the word passes is left undefined (no condition).
 */
function countedPlaces(rows: WordTally[], counted: (row: WordTally) => boolean): CountedPlaces {
  const kept = rows.filter(counted);
  const placeKey = (row: WordTally) => `${Number(row.submitted)}:${Number(row.uploadPending)}`;
  const allPlaces = new Set(rows.map((row) => `${placeKey(row)}:${row.levelSetId}`));
  const keptPlaces = new Set(kept.map((row) => `${placeKey(row)}:${row.levelSetId}`));
  const allAttributes = new Set(rows.map((row) => idSetText(row.attributeIds)));
  const keptAttributes = new Set(kept.map((row) => idSetText(row.attributeIds)));
  const byState = new Map<string, { submitted: boolean; uploadPending: boolean; levelSetIds: number[] }>();
  for (const key of keptPlaces) {
    const [submitted, uploadPending, levelSetId] = key.split(':').map(Number);
    const state = `${submitted}:${uploadPending}`;
    const entry = byState.get(state) ?? {
      submitted: submitted === 1,
      uploadPending: uploadPending === 1,
      levelSetIds: [],
    };
    entry.levelSetIds.push(levelSetId);
    byState.set(state, entry);
  }
  return {
    places: keptPlaces.size === allPlaces.size ? undefined : [...byState.values()],
    attributeIds: keptAttributes.size === allAttributes.size ? undefined : [...keptAttributes],
  };
}

/** Whether a word tally's assets match the filter for its viewer: `countedBy`, in a searched attribute. */
function wordCountedBy(filter: AssetFilter): (row: WordTally) => boolean {
  const counted = countedBy(filter);
  const searched = new Set(filter.keywords?.attributeIds ?? []);
  return (row) => counted(row) && row.attributeIds.some((id) => searched.has(id));
}

/** Whether the filter's viewer sees the assets a tally counts, in the filter's `submitted` state. */
function countedBy(filter: AssetFilter): (tally: Tally) => boolean {
  const viewer = filter.visibleTo;
  const seesAll = viewer === undefined || viewer.grants.all;
  return (tally) =>
    (filter.submitted === undefined || tally.submitted === filter.submitted) &&
    (seesAll || visibleThroughLevels(viewer, tally));
}

/**
 * A filter whose total the tallies count: no condition but visibility and `submitted`, and at most one
 * of the categories (asset_category_tallies) or the access levels (an asset's set names its levels) an
 * asset must be in.
 */
export function isTalliedScope(filter: AssetFilter): boolean {
  const { categoryIds, accessLevelIds, ...rest } = filter;
  return (categoryIds === undefined || accessLevelIds === undefined) && onlyVisibility(rest);
}

/** A filter with no condition but visibility and `submitted`: its total is what the tallies count. */
export function onlyVisibility(filter: AssetFilter): boolean {
  return Object.entries(filter).every(
    ([key, value]) => key === 'visibleTo' || key === 'submitted' || value === undefined,
  );
}
