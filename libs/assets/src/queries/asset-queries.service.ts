import { Injectable } from '@nestjs/common';
import { UsersService } from '@dam/access';
import { AssetFilter, AssetSort } from '../ports/asset-filter';
import {
  AssetFacet,
  AssetFacetCount,
  AssetPage,
  AssetPageStart,
  AssetQueries,
  AssetSearchPage,
} from '../ports/asset-queries.port';
import { AssetState } from '../ports/asset-state';
import { InternalFilter } from './asset-filter.sql';
import { AssetQueriesRepository, compileFilter, ResolvedSort } from './asset-queries.repository';

/**
 * AssetQueries over the assets tables. Usernames (the "added by" sort and value) come from the access
 * area through UsersService, so no query here reads `users`.
 */
@Injectable()
export class AssetQueriesService extends AssetQueries {
  constructor(
    private readonly repository: AssetQueriesRepository,
    private readonly users: UsersService,
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
    // The page walks in order and stops: visibility as a probe per row; the count as compiled by default.
    return this.repository.searchPage(
      compileFilter(filter, true),
      await this.resolve(sort),
      descending,
      start,
      limit,
      count,
      compileFilter(filter),
    );
  }

  facetCounts(filter: AssetFilter, facets: AssetFacet[], limit: number): Promise<AssetFacetCount[][]> {
    return this.repository.facetCounts(compileFilter(filter), facets, limit);
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

  private async resolve(sort: AssetSort): Promise<ResolvedSort> {
    if (sort.kind !== 'addedBy') return sort;
    return { kind: 'addedBy', userIds: await this.users.idsInUsernameOrder() };
  }
}
