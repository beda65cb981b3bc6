import { Injectable } from '@nestjs/common';
import { ActorService, ActorUser, PermissionsService, Principal, UsersService } from '@dam/access';
import { AssetQueries } from '@dam/assets';
import { AttributesCatalog } from '@dam/attributes';
import { InvalidInput, LanguageService, Paging, QueryParams, readPaging } from '@dam/platform';
import { AssetSummary, AssetSummaryMapper } from './asset-summary.mapper';
import { parseSearchCriteria, parseSearchOrder } from './search-criteria';
import { SearchPlanner } from './search-planner.service';

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;

export interface SearchPage {
  summaries: AssetSummary[];
  total: number;
  paging: Paging;
}

/**
 * `GET /rest/asset-search`: the assets matching the criteria that the actor may see, by exactly the
 * rule GET applies (DESIGN §5), one page at a time with the total count.
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
    const language = this.languages.readLanguage();
    const [attributes, grants] = await Promise.all([
      this.catalog.all(language),
      this.permissions.grantsFor(searcher),
    ]);
    const sort = this.planner.sort(order, attributes);
    const filter = await this.planner.plan(criteria, attributes, { actor: searcher, grants });
    const { total, ids } = await this.queries.page(
      filter,
      sort,
      order.descending,
      paging.offset,
      paging.pageSize,
    );
    if (ids.length === 0) return { summaries: [], total, paging };
    const languageKey = this.languages.isDefault(language) ? '' : language;
    const [states, displayAttributeIds, assetTypes] = await Promise.all([
      this.queries.states(ids, [...new Set(['', languageKey])]),
      this.catalog.displayAttributeIds(),
      this.catalog.assetTypes(),
    ]);
    const context = { attributes, languageKey, displayAttributeIds, assetTypes };
    return { summaries: states.map((state) => this.mapper.toSummary(state, context)), total, paging };
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
