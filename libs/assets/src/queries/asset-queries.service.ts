import { Injectable } from '@nestjs/common';
import { UsersService, Viewer } from '@dam/access';
import { AssetFilter, AssetSort } from '../ports/asset-filter';
import {
  AssetFacet,
  AssetFacetCount,
  AssetFacets,
  AssetPage,
  AssetPageStart,
  AssetQueries,
  AssetSearchPage,
} from '../ports/asset-queries.port';
import { AssetState } from '../ports/asset-state';
import { visibleLevelSets, VisibleLevelSets, visibleThroughLevels } from '../rules/asset-visibility';
import { InternalFilter, KeywordPlan } from './asset-filter.sql';
import { AssetFacetsRepository } from './asset-facets.repository';
import { AssetQueriesRepository, compileFilter, ResolvedSort } from './asset-queries.repository';
import { AssetTalliesRepository, Tally } from './asset-tallies.repository';
import { planKeywords } from './keyword-plan';

/** Beyond this many sets of levels, a viewer's visibility is probed per asset instead (levelSetsOf). */
const MAX_LEVEL_SETS = 1000;

/**
 * AssetQueries over the assets tables. Usernames (the "added by" sort and value) come from the access
 * area through UsersService, so no query here reads `users`.
 */
@Injectable()
export class AssetQueriesService extends AssetQueries {
  private readonly plans = new WeakMap<AssetFilter, Promise<KeywordPlan>>();

  constructor(
    private readonly repository: AssetQueriesRepository,
    private readonly users: UsersService,
    private readonly tallies: AssetTalliesRepository,
    private readonly facets: AssetFacetsRepository,
  ) {
    super();
  }

  async page(
    filter: InternalFilter,
    sort: AssetSort,
    descending: boolean,
    offset: number,
    limit: number,
  ): Promise<AssetPage> {
    return this.repository.page(compileFilter(filter), await this.resolve(sort), descending, offset, limit);
  }

  async searchPage(
    filter: AssetFilter,
    sort: AssetSort,
    descending: boolean,
    start: AssetPageStart,
    limit: number,
    count: boolean,
  ): Promise<AssetSearchPage> {
    // The page walks in order and stops: visibility as a probe per row, or a test of the row's set of
    // levels; the count as compiled by default, or from the tallies when the filter is one they count
    // (the whole library, or its assets in some categories or levels).
    const everyAsset = onlyVisibility(filter);
    const tallied = count && isTalliedScope(filter);
    const [plan, tallies] = await Promise.all([this.keywordPlan(filter), this.talliesFor(filter, tallied)]);
    const sets = this.levelSetsOf(filter, tallies);
    const visibleShare = tallies === undefined ? undefined : shareSeenBy(filter.visibleTo, tallies);
    const [page, total] = await Promise.all([
      this.repository.searchPage(
        { ...compileFilter(filter, true, plan, sets), everyAsset, visibleShare },
        await this.resolve(sort),
        descending,
        start,
        limit,
        count && !tallied,
        compileFilter(filter, undefined, plan, sets),
      ),
      tallied ? this.talliedTotal(filter, tallies ?? [], sets) : undefined,
    ]);
    return total === undefined ? page : { ...page, total };
  }

  /**
   * The tallies, read once for what needs them: the total of a search with no condition but visibility,
   * and the sets of levels a viewer who sees only some levels is tested against.
   */
  private async talliesFor(filter: AssetFilter, tallied: boolean): Promise<Tally[] | undefined> {
    const viewer = filter.visibleTo;
    const partial = viewer !== undefined && !viewer.grants.all;
    return tallied || partial ? this.tallies.tallies() : undefined;
  }

  /**
   * The sets of levels the filter's viewer sees assets through (none when they see everything). Past
   * MAX_LEVEL_SETS sets the list would cost more than the probe of each asset's levels it replaces.
   */
  private levelSetsOf(filter: AssetFilter, tallies: Tally[] | undefined): VisibleLevelSets | undefined {
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
  private async talliedTotal(
    filter: AssetFilter,
    tallies: Tally[],
    sets?: VisibleLevelSets,
  ): Promise<number> {
    const viewer = filter.visibleTo;
    const { submitted, categoryIds, accessLevelIds } = filter;
    const levels = accessLevelIds === undefined ? undefined : new Set(accessLevelIds);
    const counted = countedBy(filter);
    const [ownHidden, rows, repeated] = await Promise.all([
      viewer === undefined || viewer.grants.all
        ? 0
        : this.repository.countOwnHidden(viewer, { submitted, categoryIds, accessLevelIds }),
      categoryIds === undefined ? tallies : this.tallies.facetTallies('category', categoryIds),
      categoryIds === undefined
        ? 0
        : this.repository.repeatedCategoryLinks(categoryIds, viewer, submitted, sets),
    ]);
    let total = ownHidden - repeated;
    for (const tally of rows) {
      if (levels !== undefined && !tally.accessLevelIds.some((id) => levels.has(id))) continue;
      if (counted(tally)) total += tally.assets;
    }
    return total;
  }

  async facetCounts(filter: AssetFilter, facets: AssetFacet[], limit: number): Promise<AssetFacets> {
    const tallied = onlyVisibility(filter);
    const [plan, tallies] = await Promise.all([this.keywordPlan(filter), this.talliesFor(filter, tallied)]);
    const search = compileFilter(filter, undefined, plan, this.levelSetsOf(filter, tallies));
    if (!tallied) return this.facets.facets(search, facets, limit);
    // Every asset the viewer may see: the total from the tallies, and so the categories, access levels
    // and years; any other facet a GROUP BY of its own.
    const grouped = facets.filter((facet) => !isTalliedFacet(facet));
    const [total, counted, fromTallies] = await Promise.all([
      this.talliedTotal(filter, tallies ?? []),
      grouped.length === 0 ? [] : this.facets.separately(search, grouped, limit),
      this.talliedFacets(filter, facets.filter(isTalliedFacet), tallies ?? [], limit),
    ]);
    const counts = facets.map((facet) =>
      isTalliedFacet(facet) ? (fromTallies.shift() ?? []) : (counted.shift() ?? []),
    );
    return { total, counts };
  }

  /**
   * Facets of everything the filter's viewer may see, from the tallies: each tally whose levels and state
   * pass `visibleThroughLevels` adds its assets to its value (a set of levels to each of its levels), plus
   * the viewer's own uploads that would not pass it, grouped from their rows (the uploader always sees
   * their own; they are few). The same numbers as grouping the matches, most first, top `limit`.
   */
  private async talliedFacets(
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
      seesAll ? [] : this.ownHiddenFacets(viewer, filter.submitted, facets),
      ...facets.map((facet) =>
        facet.kind === 'accessLevel'
          ? tallies.flatMap((tally) => tally.accessLevelIds.map((value) => ({ ...tally, value })))
          : this.tallies.facetTallies(facet.kind),
      ),
    ]);
    return perFacet.map((rows, i) => {
      const sums = new Map<number, number>();
      for (const tally of rows) {
        if (counted(tally)) sums.set(tally.value, (sums.get(tally.value) ?? 0) + tally.assets);
      }
      for (const { value, count } of ownHidden[i] ?? []) {
        sums.set(Number(value), (sums.get(Number(value)) ?? 0) + count);
      }
      return [...sums]
        .filter(([, count]) => count > 0)
        .map(([value, count]) => ({ value, count }))
        .sort((a, b) => b.count - a.count || a.value - b.value)
        .slice(0, Math.trunc(limit));
    });
  }

  /**
   * The facets of the viewer's own uploads that they would not see through their levels, uncut: the few
   * matches first (through the uploader's index), then their links (SQLite would otherwise start a join
   * of `asset_categories` from every category link: 350 ms at 1M for a viewer with none).
   */
  private async ownHiddenFacets(
    viewer: Viewer,
    submitted: boolean | undefined,
    facets: TalliedAssetFacet[],
  ): Promise<AssetFacetCount[][]> {
    const counted = await this.facets.facets(
      this.repository.ownHiddenFilter(viewer, { submitted }),
      facets,
      Number.MAX_SAFE_INTEGER,
    );
    return counted.counts;
  }

  count(filter: InternalFilter): Promise<number> {
    return this.repository.count(compileFilter(filter));
  }

  ids(filter: InternalFilter, limit?: number): Promise<number[]> {
    return this.repository.ids(compileFilter(filter), limit);
  }

  async matching(ids: number[], filter: AssetFilter): Promise<number[]> {
    if (ids.length === 0) return [];
    return this.repository.matching(ids, compileFilter(filter));
  }

  /**
   * Per access level, a filter that is only `visibleTo` takes the fast form (every link of a viewable
   * level minus the few hidden assets); any other filter joins the assets and tests each.
   */
  async countPer(
    link: 'accessLevel' | 'category',
    filter: AssetFilter,
    ids?: number[],
  ): Promise<Map<number, number>> {
    const viewer = filter.visibleTo;
    const onlyVisibility =
      viewer !== undefined &&
      Object.entries(filter).every(([key, value]) => key === 'visibleTo' || value === undefined);
    if (link === 'accessLevel' && onlyVisibility && ids !== undefined && !viewer.grants.all) {
      const viewable = ids.filter((id) => viewer.grants.has(id, 'view'));
      return this.repository.countVisiblePerViewableLevel(
        viewer.actor.id,
        viewer.grants.levelsWith('approve'),
        viewable,
      );
    }
    return this.repository.countPer(link, compileFilter(filter), ids);
  }

  async states(ids: number[], languages: string[]): Promise<AssetState[]> {
    const stored = await this.repository.states(ids, languages);
    const userIds = [
      ...new Set(stored.map((state) => state.asset.addedByUserId).filter((id): id is number => id !== null)),
    ];
    const usernames = userIds.length === 0 ? new Map<number, string>() : await this.users.usernames(userIds);
    return stored.map((state) => ({
      ...state,
      addedByUsername:
        state.asset.addedByUserId === null ? null : (usernames.get(state.asset.addedByUserId) ?? null),
    }));
  }

  /**
   * The conjunctions of words that search reads otherwise than by a semi-join per token (keyword-plan.ts),
   * planned once per filter: a search's page and its facets ask with the same filter, side by side.
   */
  private keywordPlan(filter: AssetFilter): Promise<KeywordPlan> {
    let plan = this.plans.get(filter);
    if (plan === undefined) {
      plan = planKeywords(
        filter.keywords,
        (conditions) => this.repository.tokenRowEstimates(conditions),
        (conditions, attributeIds, rows) =>
          this.repository.conjunctionMatches(conditions, attributeIds, rows),
      );
      this.plans.set(filter, plan);
    }
    return plan;
  }

  private async resolve(sort: AssetSort): Promise<ResolvedSort> {
    if (sort.kind !== 'addedBy') return sort;
    return { kind: 'addedBy', userIds: await this.users.idsInUsernameOrder() };
  }
}

type TalliedAssetFacet = Extract<AssetFacet, { kind: 'category' | 'accessLevel' | 'addedYear' }>;

/** The facets the tallies count: categories and years (FACET_TALLIES), and access levels (asset_tallies). */
function isTalliedFacet(facet: AssetFacet): facet is TalliedAssetFacet {
  return facet.kind === 'category' || facet.kind === 'accessLevel' || facet.kind === 'addedYear';
}

/** The share of the library's assets that the viewer sees through their levels, by the tallies. */
function shareSeenBy(viewer: Viewer | undefined, tallies: Tally[]): number {
  const seen = countedBy({ visibleTo: viewer });
  let all = 0;
  let visible = 0;
  for (const tally of tallies) {
    all += tally.assets;
    if (seen(tally)) visible += tally.assets;
  }
  return all === 0 ? 1 : visible / all;
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
function onlyVisibility(filter: AssetFilter): boolean {
  return Object.entries(filter).every(
    ([key, value]) => key === 'visibleTo' || key === 'submitted' || value === undefined,
  );
}
