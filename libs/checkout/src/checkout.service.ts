import { Injectable } from '@nestjs/common';
import {
  AccessGrants,
  ActorUser,
  assetVisibilityCondition,
  isAssetVisible,
  isPrivileged,
  PermissionsService,
} from '@dam/access';
import {
  InvalidInput,
  StateConflict,
  DomainError,
  NotPermitted,
  UnknownResource,
  Paging,
  parseOptionalId,
} from '@dam/platform';
import { CheckoutAsset, CheckoutRepository } from './checkout.repository';

export const CHECKED_OUT_TO_ANOTHER_USER = 'the asset is checked out to another user';

/** A checkout as the service reports it: `holderId` 0 means checked in. */
export interface CheckoutState {
  assetId: number;
  holderId: number;
}

type Missing = (assetId: number) => DomainError;
const notFound: Missing = (assetId) => new UnknownResource(`asset ${assetId} does not exist`);
/** An asset named in a request body is the client's mistake when it names nothing: 400. */
const notNamed: Missing = (assetId) => new InvalidInput(`asset ${assetId} does not exist`);

/**
 * Checkout rules (spec 4.6, DESIGN §6). The asset must be visible to the actor (else it does not
 * exist for them); checking out needs edit on every access level of the asset, and only admins and
 * the application user may check out to someone else. Checking in is for the holder (who needs no
 * edit permission for it), admins and the application user; anyone else with edit gets 409.
 */
@Injectable()
export class CheckoutService {
  constructor(
    private readonly checkouts: CheckoutRepository,
    private readonly permissions: PermissionsService,
  ) {}

  async get(actor: ActorUser, assetId: number, missing: Missing = notFound): Promise<CheckoutState> {
    await this.visibleAssetOrThrow(actor, assetId, await this.permissions.grantsFor(actor), missing);
    return { assetId, holderId: (await this.checkouts.holderOf(assetId)) ?? 0 };
  }

  /** `userId` > 0 checks out to that user, <= 0 checks in, omitted checks out to the actor. */
  async update(
    actor: ActorUser,
    assetId: number,
    rawUserId: unknown,
    missing: Missing = notFound,
  ): Promise<CheckoutState> {
    const target = parseOptionalId(rawUserId, 'userId') ?? actor.id;
    const grants = await this.permissions.grantsFor(actor);
    const asset = await this.visibleAssetOrThrow(actor, assetId, grants, missing);
    const holderId =
      target > 0
        ? await this.checkOut(actor, grants, asset, target)
        : await this.checkIn(actor, grants, asset);
    return { assetId, holderId };
  }

  /** The asset named by `assetId` in a body, once it is known to exist for the actor. */
  async locate(actor: ActorUser, rawAssetId: unknown): Promise<number> {
    const assetId = requiredAssetId(rawAssetId);
    await this.get(actor, assetId, notNamed);
    return assetId;
  }

  async updateNamed(actor: ActorUser, rawAssetId: unknown, rawUserId: unknown): Promise<CheckoutState> {
    return this.update(actor, requiredAssetId(rawAssetId), rawUserId, notNamed);
  }

  /** The actor's checkouts, oldest first; admins and the application user see every checkout. */
  async list(actor: ActorUser, paging?: Paging): Promise<{ states: CheckoutState[]; total: number }> {
    const grants = await this.permissions.grantsFor(actor);
    const rows = await this.checkouts.list(
      isPrivileged(actor) ? undefined : actor.id,
      assetVisibilityCondition(actor, grants, 'a'),
    );
    const page = paging === undefined ? rows : rows.slice(paging.offset, paging.offset + paging.pageSize);
    return {
      states: page.map((row) => ({ assetId: row.assetId, holderId: row.userId })),
      total: rows.length,
    };
  }

  /**
   * For the assets area, before edits and content uploads: 409 while the asset is checked out to
   * someone other than the actor, unless the actor is an admin or the application user.
   */
  async assertEditableBy(actor: ActorUser, assetId: number): Promise<void> {
    if (isPrivileged(actor)) return;
    const holderId = await this.checkouts.holderOf(assetId);
    if (holderId !== null && holderId !== actor.id) throw new StateConflict(CHECKED_OUT_TO_ANOTHER_USER);
  }

  private async checkOut(
    actor: ActorUser,
    grants: AccessGrants,
    asset: CheckoutAsset,
    target: number,
  ): Promise<number> {
    if (target !== actor.id && !isPrivileged(actor)) {
      throw new NotPermitted('only admins may check an asset out to another user');
    }
    requireEdit(grants, asset, 'check it out');
    if (target !== actor.id && !(await this.checkouts.userExists(target))) {
      throw new InvalidInput(`userId ${target} does not name a user`);
    }
    // Read first for the usual case; the INSERT against the primary key settles races.
    let holderId = await this.checkouts.holderOf(asset.id);
    if (holderId === null) {
      const outcome = await this.checkouts.insert(asset.id, target);
      if (outcome === 'missing') throw notFound(asset.id);
      holderId = outcome === 'inserted' ? target : await this.checkouts.holderOf(asset.id);
    }
    if (holderId !== target) throw new StateConflict(CHECKED_OUT_TO_ANOTHER_USER);
    return target;
  }

  private async checkIn(actor: ActorUser, grants: AccessGrants, asset: CheckoutAsset): Promise<number> {
    const holderId = await this.checkouts.holderOf(asset.id);
    if (holderId === null) return 0;
    if (isPrivileged(actor)) {
      await this.checkouts.delete(asset.id);
      return 0;
    }
    if (holderId !== actor.id) {
      requireEdit(grants, asset, 'check it in');
      throw new StateConflict(CHECKED_OUT_TO_ANOTHER_USER);
    }
    // Conditional, so a concurrent hand-over to someone else is not undone.
    if (
      !(await this.checkouts.delete(asset.id, actor.id)) &&
      (await this.checkouts.holderOf(asset.id)) !== null
    ) {
      throw new StateConflict(CHECKED_OUT_TO_ANOTHER_USER);
    }
    return 0;
  }

  private async visibleAssetOrThrow(
    actor: ActorUser,
    assetId: number,
    grants: AccessGrants,
    missing: Missing,
  ): Promise<CheckoutAsset> {
    const asset = await this.checkouts.findAsset(assetId);
    if (asset === null || !isAssetVisible(actor, grants, asset)) throw missing(assetId);
    return asset;
  }
}

function requireEdit(grants: AccessGrants, asset: CheckoutAsset, action: string): void {
  if (!grants.all && !grants.onEvery(asset.accessLevelIds, 'edit')) {
    throw new NotPermitted(`you need edit permission on every access level of the asset to ${action}`);
  }
}

function requiredAssetId(raw: unknown): number {
  const assetId = parseOptionalId(raw, 'assetId');
  if (assetId === undefined) throw new InvalidInput('you must supply the assetId of the asset to check out');
  if (assetId <= 0) throw new InvalidInput(`asset ${assetId} does not exist`);
  return assetId;
}
