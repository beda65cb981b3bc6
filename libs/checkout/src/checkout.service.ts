import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  AccessGrants,
  ActorUser,
  isPrivileged,
  isSelfOrAdmin,
  PermissionsService,
  UsersService,
} from '@dam/access';
import { AssetQueries, AssetReader, PlacedAsset } from '@dam/assets';
import { DomainError, InvalidInput, NotPermitted, UnknownResource } from '@dam/errors';
import { DomainEvents } from '@dam/events';
import { Paging, parseOptionalId, UrlService } from '@dam/http';
import { AssetCheckedOut } from './checkout-errors';
import { CheckoutLocks } from './checkout-locks';
import { CheckoutRepository } from './checkout.repository';
import { AssetCheckedInEvent, AssetCheckedOutEvent, checkoutEventData } from './events/checkout-events';

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
    private readonly locks: CheckoutLocks,
    private readonly assets: AssetReader,
    private readonly assetQueries: AssetQueries,
    private readonly permissions: PermissionsService,
    private readonly users: UsersService,
    private readonly events: DomainEvents,
    private readonly urls: UrlService,
  ) {}

  async get(actor: ActorUser, assetId: number, missing: Missing = notFound): Promise<CheckoutState> {
    await this.visibleAssetOrThrow(actor, assetId, missing);
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
    const { placed, grants } = await this.visibleAssetOrThrow(actor, assetId, missing);
    const holderId =
      target > 0
        ? await this.checkOut(actor, grants, placed, target)
        : await this.checkIn(actor, grants, placed);
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

  /**
   * The actor's checkouts, oldest first; admins and the application user see every checkout. Only
   * those of assets that exist and that the actor may see (asked of the assets area) are listed.
   */
  async list(actor: ActorUser, paging?: Paging): Promise<{ states: CheckoutState[]; total: number }> {
    const [held, grants] = await Promise.all([
      this.checkouts.list(isPrivileged(actor) ? undefined : actor.id),
      this.permissions.grantsFor(actor),
    ]);
    const heldIds = held.map((row) => row.assetId);
    const visible = new Set(
      heldIds.length === 0 ? [] : await this.assetQueries.matching(heldIds, { visibleTo: { actor, grants } }),
    );
    const rows = held.filter((row) => visible.has(row.assetId));
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
  assertEditableBy(actor: ActorUser, assetId: number): Promise<void> {
    return this.locks.assertEditableBy(actor, assetId);
  }

  private async checkOut(
    actor: ActorUser,
    grants: AccessGrants,
    placed: PlacedAsset,
    target: number,
  ): Promise<number> {
    const assetId = placed.asset.id;
    if (!isSelfOrAdmin(actor, target)) {
      throw new NotPermitted('only admins may check an asset out to another user');
    }
    requireEdit(grants, placed, 'check it out');
    if (target !== actor.id && !(await this.users.exists(target))) {
      throw new InvalidInput(`userId ${target} does not name a user`);
    }
    // Read first for the usual case; the INSERT against the primary key settles races.
    let holderId = await this.checkouts.holderOf(assetId);
    if (holderId === null) {
      const outcome = await this.checkouts.insert(assetId, target, (manager) =>
        this.events.record(
          manager,
          new AssetCheckedOutEvent(checkoutEventData(this.urls, assetId, target, actor.id)),
        ),
      );
      if (outcome === 'missing') throw notFound(assetId);
      holderId = outcome === 'inserted' ? target : await this.checkouts.holderOf(assetId);
    }
    if (holderId !== target) throw new AssetCheckedOut();
    return target;
  }

  private async checkIn(actor: ActorUser, grants: AccessGrants, placed: PlacedAsset): Promise<number> {
    const assetId = placed.asset.id;
    const holderId = await this.checkouts.holderOf(assetId);
    if (holderId === null) return 0;
    const checkedIn = (held: number) => (manager: EntityManager) =>
      this.events.record(
        manager,
        new AssetCheckedInEvent(checkoutEventData(this.urls, assetId, held, actor.id)),
      );
    if (isPrivileged(actor)) {
      await this.checkouts.delete(assetId, undefined, checkedIn(holderId));
      return 0;
    }
    if (holderId !== actor.id) {
      requireEdit(grants, placed, 'check it in');
      throw new AssetCheckedOut();
    }
    // Conditional, so a concurrent hand-over to someone else is not undone.
    if (
      !(await this.checkouts.delete(assetId, actor.id, checkedIn(actor.id))) &&
      (await this.checkouts.holderOf(assetId)) !== null
    ) {
      throw new AssetCheckedOut();
    }
    return 0;
  }

  /** The asset with the actor's grants; one the actor may not see does not exist for them. */
  private async visibleAssetOrThrow(
    actor: ActorUser,
    assetId: number,
    missing: Missing,
  ): Promise<{ placed: PlacedAsset; grants: AccessGrants }> {
    try {
      return await this.assets.visibleOrThrow(actor, assetId);
    } catch (error) {
      if (error instanceof UnknownResource) throw missing(assetId);
      throw error;
    }
  }
}

function requireEdit(grants: AccessGrants, placed: PlacedAsset, action: string): void {
  if (!grants.all && !grants.onEvery(placed.accessLevelIds, 'edit')) {
    throw new NotPermitted(`you need edit permission on every access level of the asset to ${action}`);
  }
}

function requiredAssetId(raw: unknown): number {
  const assetId = parseOptionalId(raw, 'assetId');
  if (assetId === undefined) throw new InvalidInput('you must supply the assetId of the asset to check out');
  if (assetId <= 0) throw new InvalidInput(`asset ${assetId} does not exist`);
  return assetId;
}
