import { Injectable } from '@nestjs/common';
import { Viewer } from '@dam/access';
import { AccessLevelsService } from '@dam/access-levels';
import { AssetTypesService } from '@dam/attributes';
import { CategoriesService } from '@dam/categories';
import { InvalidInput } from '@dam/errors';
import { UrlService } from '@dam/http';
import { AssetQueries } from './queries/asset-queries.service';

export const NO_ACCESS_LEVELS = 'you must supply some access levels to put the asset in';

/**
 * Checks what an asset is given to point at: access levels, categories, an asset type, parents. Each is
 * asked of its owner (access levels, categories, asset types) or of the asset queries (parents).
 */
@Injectable()
export class AssetReferences {
  constructor(
    private readonly accessLevels: AccessLevelsService,
    private readonly categories: CategoriesService,
    private readonly assetTypes: AssetTypesService,
    private readonly queries: AssetQueries,
    private readonly urls: UrlService,
  ) {}

  /** At least one; each must exist and, when it has sub-levels, be always assignable (DESIGN §6). */
  async accessLevelsOrThrow(ids: number[]): Promise<void> {
    if (ids.length === 0) throw new InvalidInput(NO_ACCESS_LEVELS);
    await this.accessLevels.requireAssignable(ids);
  }

  async categoriesOrThrow(ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    const missing = await this.categories.missingIds(ids);
    if (missing.length > 0) throw new InvalidInput(`category ${missing.join(', ')} does not exist`);
  }

  async assetTypeIdOrThrow(url: string): Promise<number> {
    const id = this.urls.parseIdOrThrow(url, 'asset-types', 'an asset type', 'assetTypeUrl');
    if (!(await this.assetTypes.exists(id))) throw new InvalidInput(`asset type ${id} does not exist`);
    return id;
  }

  /** Parent URLs must name other assets the viewer can see. */
  async parentIdsOrThrow(viewer: Viewer, assetId: number, urls: string[]): Promise<number[]> {
    const ids = [
      ...new Set(urls.map((url) => this.urls.parseIdOrThrow(url, 'assets', 'an asset', 'parents'))),
    ];
    if (ids.includes(assetId)) throw new InvalidInput('an asset cannot be its own parent');
    const found = new Set(await this.queries.matching(ids, { visibleTo: viewer }));
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length > 0) throw new InvalidInput(`asset ${missing.join(', ')} does not exist`);
    return ids;
  }
}
