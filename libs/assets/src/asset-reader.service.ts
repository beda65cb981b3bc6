import { Injectable } from '@nestjs/common';
import { AccessGrants, ActorUser, isAssetVisible, PermissionsService } from '@dam/access';
import { AttributesCatalog } from '@dam/attributes';
import { LanguageService, UnknownResource } from '@dam/platform';
import { AssetMapper, AssetRepresentation } from './asset.mapper';
import { AssetsRepository, PlacedAsset } from './assets.repository';

export interface VisibleAsset {
  placed: PlacedAsset;
  grants: AccessGrants;
}

/**
 * Finds assets as an actor may see them (DESIGN §5: what they may not see does not exist for them)
 * and builds their representation in the request's language with a fixed number of queries.
 */
@Injectable()
export class AssetReader {
  constructor(
    private readonly assets: AssetsRepository,
    private readonly permissions: PermissionsService,
    private readonly catalog: AttributesCatalog,
    private readonly languages: LanguageService,
    private readonly mapper: AssetMapper,
  ) {}

  async visibleOrThrow(actor: ActorUser, id: number): Promise<VisibleAsset> {
    const [placed, grants] = await Promise.all([
      this.assets.findPlaced(id),
      this.permissions.grantsFor(actor),
    ]);
    if (
      placed === null ||
      !isAssetVisible(actor, grants, { ...placed.asset, accessLevelIds: placed.accessLevelIds })
    ) {
      throw new UnknownResource(`asset ${id} does not exist`);
    }
    return { placed, grants };
  }

  async representation(id: number): Promise<AssetRepresentation> {
    const placed = await this.assets.findPlaced(id);
    if (placed === null) throw new UnknownResource(`asset ${id} does not exist`);
    return this.represent(placed);
  }

  async represent(placed: PlacedAsset): Promise<AssetRepresentation> {
    const language = this.languages.readLanguage();
    const key = this.storageKey(language);
    const [state, attributes] = await Promise.all([
      this.assets.loadState(placed, [...new Set(['', key])]),
      this.catalog.all(language),
    ]);
    return this.mapper.toRepresentation(state, attributes, key);
  }

  /** Values in the default language are stored under '' so that they survive a change of default. */
  storageKey(language: string): string {
    return this.languages.isDefault(language) ? '' : language;
  }
}
