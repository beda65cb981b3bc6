import { Injectable } from '@nestjs/common';
import { ActorService, ActorUser, PermissionsService, Principal, UsersService } from '@dam/access';
import { AssetQueries } from '@dam/assets';
import { AttributesCatalog } from '@dam/attributes';
import { InvalidInput } from '@dam/errors';
import { Paging, parseBoolean, QueryParams, readPaging } from '@dam/http';
import { LanguageService } from '@dam/i18n';
import { AssetSummary, AssetSummaryMapper } from './asset-summary.mapper';
import { parseSearchCriteria, parseSearchOrder } from './search-criteria';
import { SearchCursors } from './search-cursor';
import { FacetLabels, FacetValue, parseFacetLimit, parseFacets } from './search-facets';
import { SearchPlanner } from './search-planner.service';

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;

export interface SearchPage {
  summaries: AssetSummary[];
  /** Absent with `count=false`. */
  total?: number;
  paging: Paging;
  /** The `cursor` of the next page, when one follows. */
  nextCursor?: string;
  /** With `facets=`: the counts per facet (the answer is then the envelope). */
  facets?: Record<string, FacetValue[]>;
}

/**
 * `GET /rest/asset-search`: the assets matching the criteria that the actor may see, by exactly the
 * rule GET applies (DESIGN §5), one page at a time: by `page` (offset) or by `cursor` (keyset: after the
 * last row of the previous page, so a deep page costs what the first does), with the total count unless
 * `count=false`, and with facet counts over the same assets when `facets=` names some.
 */
@Injectable()
export class AssetSearchService {
  constructor(
    private readonly queries: AssetQueries,
    private readonly planner: SearchPlanner,
    private readonly mapper: AssetSummaryMapper,
    private readonly catalog: AttributesCatalog,
    private readonly languages: LanguageService,
    private readonly permissions: PermissionsService,
    private readonly actors: ActorService,
    private readonly users: UsersService,
    private readonly cursors: SearchCursors,
    private readonly facetLabels: FacetLabels,
  ) {}

  async search(caller: Principal, actor: ActorUser, params: QueryParams): Promise<SearchPage> {
    const searcher = await this.searcherOrThrow(caller, actor, params.single('username'));
    const paging = readPaging(
      { page: params.single('page'), pageSize: params.single('pageSize') },
      DEFAULT_PAGE_SIZE,
      MAX_PAGE_SIZE,
    ) ?? { page: 0, pageSize: DEFAULT_PAGE_SIZE, offset: 0 };
    const criteria = parseSearchCriteria(params);
    const order = parseSearchOrder(params);
    const count = parseBoolean(params.single('count'), 'count') ?? true;
    const cursor = params.single('cursor');
    const after = cursor === undefined ? undefined : this.cursors.decode(cursor, params);
    const facetLimit = parseFacetLimit(params);
    const language = this.languages.readLanguage();
    const [attributes, grants] = await Promise.all([
      this.catalog.all(language),
      this.permissions.grantsFor(searcher),
    ]);
    const facetRequests = parseFacets(params, attributes);
    const sort = this.planner.sort(order, attributes);
    const filter = await this.planner.plan(criteria, attributes, { actor: searcher, grants });
    // With facets, their pass over the matches also counts them: the page then skips its own count.
    const faceted = facetRequests.length > 0;
    const [page, facetCounts] = await Promise.all([
      this.queries.searchPage(
        filter,
        sort,
        order.descending,
        after === undefined ? { offset: paging.offset } : { after },
        paging.pageSize,
        count && !faceted,
      ),
      facetRequests.length === 0
        ? undefined
        : this.queries.facetCounts(
            filter,
            facetRequests.map((request) => request.facet),
            facetLimit,
          ),
    ]);
    const { ids, next } = page;
    const total = count && facetCounts !== undefined ? facetCounts.total : page.total;
    const nextCursor = next === undefined ? undefined : this.cursors.encode(next, params);
    const languageKey = this.languages.isDefault(language) ? '' : language;
    const [states, displayAttributeIds, assetTypes] = await Promise.all([
      ids.length === 0 ? [] : this.queries.states(ids, [...new Set(['', languageKey])]),
      this.catalog.displayAttributeIds(),
      this.catalog.assetTypes(),
    ]);
    const facets =
      facetCounts === undefined
        ? undefined
        : await this.facetLabels.label(facetRequests, facetCounts.counts, assetTypes, facetLimit);
    const context = { attributes, languageKey, displayAttributeIds, assetTypes };
    return {
      summaries: states.map((state) => this.mapper.toSummary(state, context)),
      total,
      paging,
      nextCursor,
      facets,
    };
  }

  /** `username` names the searcher like `userId` (already applied by the guard), under the same rules. */
  private async searcherOrThrow(
    caller: Principal,
    actor: ActorUser,
    username: string | undefined,
  ): Promise<ActorUser> {
    if (username === undefined) return actor;
    const [userId] = await this.users.idsByUsername(username);
    if (userId === undefined)
      throw new InvalidInput(`username ${JSON.stringify(username.slice(0, 100))} does not name a user`);
    if (actor.id !== caller.user.id && actor.id !== userId) {
      throw new InvalidInput('userId and username name different users');
    }
    return this.actors.resolve(caller.user, userId, 'username');
  }
}
