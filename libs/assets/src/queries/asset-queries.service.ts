import { Injectable } from '@nestjs/common';
import { UsersService } from '@dam/access';
import { AssetFilter, AssetSort } from '../ports/asset-filter';
import {
  AssetFacet,
  AssetFacets,
  AssetPage,
  AssetPageStart,
  AssetSearchPage,
} from '../ports/asset-queries.port';
import { AssetState } from '../ports/asset-state';
import { CompiledFilter, compileFilter, InternalFilter } from './asset-filter.sql';
import { AssetCountRepository } from './asset-count.repository';
import { AssetFacetsRepository } from './asset-facets.repository';
import { AssetPageRepository } from './asset-page.repository';
import { AssetStatesRepository } from './asset-states.repository';
import { KeywordPlanRepository } from './keyword-plan.repository';
import { ResolvedSort } from './page.sql';
import {
  isTalliedFacet,
  isTalliedScope,
  onlyVisibility,
  shareSeenBy,
  singleWord,
  TalliedCounts,
} from './tallied-counts.service';
import { compileWord } from './word-walk';

/**
 * What other areas may ask about assets (search, publishing, lightboxes, checkout, counts), over the
 * assets area's own tables: callers compose an AssetFilter and never see SQL. Each question has its
 * class below: pages (AssetPageRepository, which may walk a sort copy: SortWalkRepository), counts
 * (AssetCountRepository, TalliedCounts), facets (AssetFacetsRepository), the keyword plan
 * (KeywordPlanRepository) and states (AssetStatesRepository). Usernames (the "added by" sort and value)
 * come from the access area through UsersService, so no query here reads `users`.
 */
@Injectable()
export class AssetQueries {
  constructor(
    private readonly pages: AssetPageRepository,
    private readonly counts: AssetCountRepository,
    private readonly tallied: TalliedCounts,
    private readonly facets: AssetFacetsRepository,
    private readonly keywords: KeywordPlanRepository,
    private readonly stored: AssetStatesRepository,
    private readonly users: UsersService,
  ) {}

  /** The total and one page of ids in `sort` order. */
  async page(
    filter: InternalFilter,
    sort: AssetSort,
    descending: boolean,
    offset: number,
    limit: number,
  ): Promise<AssetPage> {
    return this.pages.page(compileFilter(filter), await this.resolve(sort), descending, offset, limit);
  }

  /**
   * One page of a search, by offset or after a keyset position (a deep page then costs what the first
   * does), with the total unless `count` is false. Reads may come from the read replica
   * (DATABASE_READ_URL), so they may lag the caller's own writes by the replication delay.
   */
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
    // One word: its pages walk its token rows, its total from the word tallies.
    const single = singleWord(filter);
    const word = count ? single : undefined;
    const [plan, tallies] = await Promise.all([
      this.keywords.plan(filter),
      this.tallied.talliesFor(filter, tallied),
    ]);
    const sets = this.tallied.levelSetsOf(filter, tallies);
    const visibleShare = tallies === undefined ? undefined : shareSeenBy(filter.visibleTo, tallies);
    const wordFilter = single === undefined ? undefined : compileWord(filter, single, sets);
    const wordRows = word === undefined ? undefined : this.tallied.wordTallies(word);
    const known =
      wordRows === undefined
        ? undefined
        : {
            total: wordRows.then((rows) => this.tallied.wordTotal(filter, rows)),
            assets: () => wordRows.then((rows) => rows.reduce((sum, row) => sum + row.assets, 0)),
          };
    const [page, total] = await Promise.all([
      this.pages.searchPage(
        { ...compileFilter(filter, true, plan, sets), everyAsset, visibleShare, word: wordFilter },
        await this.resolve(sort),
        descending,
        start,
        limit,
        count && !tallied && word === undefined,
        compileFilter(filter, undefined, plan, sets),
        known,
      ),
      tallied ? this.tallied.total(filter, tallies ?? [], sets) : known?.total,
    ]);
    return total === undefined ? page : { ...page, total };
  }

  /**
   * Per facet, the `limit` values with the most matching assets (most first, then by value), counted
   * over exactly the assets `filter` matches (visibility included), and the number of those assets (the
   * search's total, so that `searchPage` need not count them again). Read like `searchPage`.
   */
  async facetCounts(filter: AssetFilter, facets: AssetFacet[], limit: number): Promise<AssetFacets> {
    const tallied = onlyVisibility(filter);
    const [plan, tallies] = await Promise.all([
      this.keywords.plan(filter),
      this.tallied.talliesFor(filter, tallied),
    ]);
    const search = compileFilter(filter, undefined, plan, this.tallied.levelSetsOf(filter, tallies));
    const word = singleWord(filter);
    if (word !== undefined) return this.wordFacetCounts(filter, word, search, facets, limit);
    if (!tallied) return this.facets.facets(search, facets, limit);
    // Every asset the viewer may see: the total from the tallies, and so the categories, access levels,
    // years and types; any other facet a GROUP BY of its own.
    const grouped = facets.filter((facet) => !isTalliedFacet(facet));
    const [total, counted, fromTallies] = await Promise.all([
      this.tallied.total(filter, tallies ?? []),
      grouped.length === 0 ? [] : this.facets.separately(search, grouped, limit),
      this.tallied.facets(filter, facets.filter(isTalliedFacet), tallies ?? [], limit),
    ]);
    const counts = facets.map((facet) =>
      isTalliedFacet(facet) ? (fromTallies.shift() ?? []) : (counted.shift() ?? []),
    );
    return { total, counts };
  }

  /**
   * Facets of one word (`singleWord`): the total, the access levels, categories, years and types from the word's
   * tallies (`wordFacets`), any other facet a GROUP BY of its own over the word's matches (side by side).
   */
  private async wordFacetCounts(
    filter: AssetFilter,
    word: string,
    search: CompiledFilter,
    facets: AssetFacet[],
    limit: number,
  ): Promise<AssetFacets> {
    const byWord = isTalliedFacet;
    const grouped = facets.filter((facet) => !byWord(facet));
    const rows = await this.tallied.wordTallies(word);
    const [total, counted, fromTallies] = await Promise.all([
      this.tallied.wordTotal(filter, rows),
      grouped.length === 0 ? [] : this.facets.separately(search, grouped, limit),
      this.tallied.wordFacets(filter, word, facets.filter(byWord), rows, limit),
    ]);
    const counts = facets.map((facet) =>
      byWord(facet) ? (fromTallies.shift() ?? []) : (counted.shift() ?? []),
    );
    return { total, counts };
  }

  count(filter: InternalFilter): Promise<number> {
    return this.counts.count(compileFilter(filter));
  }

  /** Every matching id, ascending (for sets such as publishing members); at most `limit` when given. */
  ids(filter: InternalFilter, limit?: number): Promise<number[]> {
    return this.counts.ids(compileFilter(filter), limit);
  }

  /** Which of `ids` match (order kept). */
  async matching(ids: number[], filter: AssetFilter): Promise<number[]> {
    if (ids.length === 0) return [];
    return this.counts.matching(ids, compileFilter(filter));
  }

  /**
   * Matching assets per access level or per category they are directly in; only `ids` when given. Per
   * access level, a filter that is only `visibleTo` takes the fast form (every link of a viewable level
   * minus the few hidden assets); any other filter joins the assets and tests each.
   */
  async countPer(
    link: 'accessLevel' | 'category',
    filter: AssetFilter,
    ids?: number[],
  ): Promise<Map<number, number>> {
    const viewer = filter.visibleTo;
    const onlyVisibleTo =
      viewer !== undefined &&
      Object.entries(filter).every(([key, value]) => key === 'visibleTo' || value === undefined);
    if (link === 'accessLevel' && onlyVisibleTo && ids !== undefined && !viewer.grants.all) {
      const viewable = ids.filter((id) => viewer.grants.has(id, 'view'));
      return this.counts.countVisiblePerViewableLevel(
        viewer.actor.id,
        viewer.grants.levelsWith('approve'),
        viewable,
      );
    }
    return this.counts.countPer(link, compileFilter(filter), ids);
  }

  /** The state of each asset in the order of `ids` (missing ones skipped), values in `languages` only. */
  async states(ids: number[], languages: string[]): Promise<AssetState[]> {
    const stored = await this.stored.states(ids, languages);
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

  private async resolve(sort: AssetSort): Promise<ResolvedSort> {
    if (sort.kind !== 'addedBy') return sort;
    return { kind: 'addedBy', userIds: await this.users.idsInUsernameOrder() };
  }
}
