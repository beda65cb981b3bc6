import { Injectable } from '@nestjs/common';
import { AccessGrants, ActorUser, PermissionsService, UsersService } from '@dam/access';
import { AttributeDefinition, AttributesCatalog } from '@dam/attributes';
import { sentManyTimes } from '@dam/http';
import { LanguageService } from '@dam/i18n';
import { AssetNotFound } from './asset-errors';
import { AssetMapper, AssetRepresentation } from './asset.mapper';
import { AssetsRepository } from './assets.repository';
import { PlacedAsset } from './ports/asset-state';
import { StoredState } from './queries/asset-states.repository';
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
  /** The representation last built of each kept state (see representKeptState). */
  private readonly represented = new WeakMap<
    StoredState,
    { key: string; attributes: readonly AttributeDefinition[]; representation: AssetRepresentation }
  >();

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
    return this.representKeptState(state, language);
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

  /**
   * `visibleRepresentation` without a promise when everything it needs is held in memory and current
   * (the kept state after its version read on SQLite, the actor's grants, the catalogue, the uploader's
   * name): the warm GET's path. Undefined when `visibleRepresentation` must answer; AssetNotFound as it.
   */
  heldRepresentation(actor: ActorUser, id: number): AssetRepresentation | undefined {
    const language = this.languages.readLanguage();
    const storageKey = this.storageKey(language);
    const state = this.assets.heldWhole(id, ['', storageKey]);
    if (state === undefined) return undefined;
    const grants = this.permissions.heldGrantsFor(actor);
    if (grants === undefined) return undefined;
    if (state === null || !assetVisibleTo({ actor, grants }, state)) throw new AssetNotFound(id);
    const attributes = this.catalog.heldAll(language);
    const uploader = state.asset.addedByUserId;
    const addedByUsername = uploader === null ? null : this.users.heldUsername(uploader);
    if (attributes === undefined || addedByUsername === undefined) return undefined;
    return this.keptRepresentation(state, storageKey, attributes, addedByUsername);
  }

  /** The representation of a state kept by the repository (see keptRepresentation). */
  private async representKeptState(state: StoredState, language: string): Promise<AssetRepresentation> {
    const { attributes, addedByUsername } = await this.shownWith(state, language);
    return this.keptRepresentation(state, this.storageKey(language), attributes, addedByUsername);
  }

  /**
   * The representation of a state kept by the repository (findWhole answers the same object while the
   * asset's version stands), built once per state, attribute catalogue, language, uploader's name and
   * origin, and marked `sentManyTimes` so that its JSON text and ETag are made once too.
   */
  private keptRepresentation(
    state: StoredState,
    storageKey: string,
    attributes: readonly AttributeDefinition[],
    addedByUsername: string | null,
  ): AssetRepresentation {
    const key = `${storageKey}\n${addedByUsername ?? '\u0000'}\n${this.mapper.url(state.asset.id)}`;
    const held = this.represented.get(state);
    if (held !== undefined && held.key === key && sameItems(held.attributes, attributes)) {
      return held.representation;
    }
    const representation = sentManyTimes(
      this.mapper.toRepresentation({ ...state, addedByUsername }, attributes, storageKey),
    );
    this.represented.set(state, { key, attributes, representation });
    return representation;
  }

  private async representState(state: StoredState, language: string): Promise<AssetRepresentation> {
    const { attributes, addedByUsername } = await this.shownWith(state, language);
    return this.mapper.toRepresentation({ ...state, addedByUsername }, attributes, this.storageKey(language));
  }

  /** What a representation shows beside the state: the attribute catalogue and the uploader's name. */
  private async shownWith(
    state: StoredState,
    language: string,
  ): Promise<{ attributes: AttributeDefinition[]; addedByUsername: string | null }> {
    const uploader = state.asset.addedByUserId;
    const [attributes, usernames] = await Promise.all([
      this.catalog.all(language),
      uploader === null ? new Map<number, string>() : this.users.usernames([uploader]),
    ]);
    return { attributes, addedByUsername: uploader === null ? null : (usernames.get(uploader) ?? null) };
  }

  /** Values in the default language are stored under '' so that they survive a change of default. */
  storageKey(language: string): string {
    return this.languages.isDefault(language) ? '' : language;
  }
}

/** Whether two lists hold the same items (by identity) in the same order. */
function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index]);
}
