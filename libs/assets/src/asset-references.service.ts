import { Injectable } from '@nestjs/common';
import { AccessGrants, ActorUser, assetVisibilityCondition } from '@dam/access';
import { InvalidInput, UrlService } from '@dam/platform';
import { AssetsRepository } from './assets.repository';

export const NO_ACCESS_LEVELS = 'you must supply some access levels to put the asset in';

/** Checks what an asset is given to point at: access levels, categories, an asset type, parents. */
@Injectable()
export class AssetReferences {
  constructor(
    private readonly assets: AssetsRepository,
    private readonly urls: UrlService,
  ) {}

  /** At least one; each must exist and, when it has sub-levels, be always assignable (DESIGN §6). */
  async accessLevelsOrThrow(ids: number[]): Promise<void> {
    if (ids.length === 0) throw new InvalidInput(NO_ACCESS_LEVELS);
    const facts = await this.assets.levelFacts(ids);
    for (const id of ids) {
      const level = facts.find((fact) => fact.id === id);
      if (level === undefined) throw new InvalidInput(`access level ${id} does not exist`);
      if (level.hasChildren && !level.isAlwaysAssignable) {
        throw new InvalidInput(`access level ${id} has sub-access levels and is not always assignable`);
      }
    }
  }

  async categoriesOrThrow(ids: number[]): Promise<void> {
    const existing = new Set(await this.assets.existingCategoryIds(ids));
    const missing = ids.filter((id) => !existing.has(id));
    if (missing.length > 0) throw new InvalidInput(`category ${missing.join(', ')} does not exist`);
  }

  async assetTypeIdOrThrow(url: string): Promise<number> {
    const id = this.urls.parseIdOrThrow(url, 'asset-types', 'an asset type');
    if (!(await this.assets.assetTypeExists(id))) throw new InvalidInput(`asset type ${id} does not exist`);
    return id;
  }

  /** Parent URLs must name other assets the actor can see. */
  async parentIdsOrThrow(
    actor: ActorUser,
    grants: AccessGrants,
    assetId: number,
    urls: string[],
  ): Promise<number[]> {
    const ids = [...new Set(urls.map((url) => this.urls.parseIdOrThrow(url, 'assets', 'an asset')))];
    if (ids.includes(assetId)) throw new InvalidInput('an asset cannot be its own parent');
    const found = new Set(
      await this.assets.existingAssetIds(ids, assetVisibilityCondition(actor, grants, 'a')),
    );
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length > 0) throw new InvalidInput(`asset ${missing.join(', ')} does not exist`);
    return ids;
  }
}
