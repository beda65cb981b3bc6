import { Injectable } from '@nestjs/common';
import { AccessGrants, ActorUser, PermissionsService, UsersService } from '@dam/access';
import { AttributesCatalog } from '@dam/attributes';
import { LanguageService } from '@dam/platform';
import { AssetNotFound } from './asset-errors';
import { AssetMapper, AssetRepresentation } from './asset.mapper';
import { AssetsRepository } from './assets.repository';
import { PlacedAsset } from './ports/asset-state';
import { StoredState } from './queries/asset-queries.repository';
import { assetVisibleTo } from './rules/asset-visibility';

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
    private readonly users: UsersService,
    private readonly catalog: AttributesCatalog,
    private readonly languages: LanguageService,
    private readonly mapper: AssetMapper,
  ) {}

  async visibleOrThrow(actor: ActorUser, id: number): Promise<VisibleAsset> {
    const [placed, grants] = await Promise.all([
      this.assets.findPlaced(id),
      this.permissions.grantsFor(actor),
    ]);
    if (placed === null || !assetVisibleTo({ actor, grants }, placed)) throw new AssetNotFound(id);
    return { placed, grants };
  }

  /**
   * GET of one asset: its whole state in one statement, beside the actor's grants (cached in access),
   * then the attribute catalogue and the uploader's username (both cached in their owners).
   */
  async visibleRepresentation(actor: ActorUser, id: number): Promise<AssetRepresentation> {
    const language = this.languages.readLanguage();
    const [state, grants] = await Promise.all([
      this.assets.findWhole(id, ['', this.storageKey(language)]),
      this.permissions.grantsFor(actor),
    ]);
    if (state === null || !assetVisibleTo({ actor, grants }, state)) throw new AssetNotFound(id);
    return this.representState(state, language);
  }

  async representation(id: number): Promise<AssetRepresentation> {
    const language = this.languages.readLanguage();
    const state = await this.assets.findWhole(id, ['', this.storageKey(language)]);
    if (state === null) throw new AssetNotFound(id);
    return this.representState(state, language);
  }

  async represent(placed: PlacedAsset): Promise<AssetRepresentation> {
    const language = this.languages.readLanguage();
    const state = await this.assets.loadState(placed, [...new Set(['', this.storageKey(language)])]);
    return this.representState(state, language);
  }

  private async representState(state: StoredState, language: string): Promise<AssetRepresentation> {
    const uploader = state.asset.addedByUserId;
    const [attributes, usernames] = await Promise.all([
      this.catalog.all(language),
      uploader === null ? new Map<number, string>() : this.users.usernames([uploader]),
    ]);
    const addedByUsername = uploader === null ? null : (usernames.get(uploader) ?? null);
    return this.mapper.toRepresentation({ ...state, addedByUsername }, attributes, this.storageKey(language));
  }

  /** Values in the default language are stored under '' so that they survive a change of default. */
  storageKey(language: string): string {
    return this.languages.isDefault(language) ? '' : language;
  }
}
