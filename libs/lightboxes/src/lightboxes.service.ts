import { Injectable } from '@nestjs/common';
import { ActorUser, isSelfOrAdmin, PermissionsService, UsersService, Viewer } from '@dam/access';
import { AssetQueries } from '@dam/assets';
import { InvalidInput, UnknownResource } from '@dam/errors';
import { DomainEvents } from '@dam/events';
import { Paging, UrlService } from '@dam/http';
import { LightboxWriteDto } from './dto/lightbox.dto';
import { LightboxEntity } from './entities/lightbox.entity';
import { lightboxDescription, lightboxName, lightboxNameKey, LightboxNameMissing } from './lightbox-name';
import { LightboxNotFound, OthersLightboxes } from './lightbox-errors';
import { LightboxesRepository } from './lightboxes.repository';
import {
  LightboxCreated,
  LightboxDeleted,
  lightboxEventData,
  LightboxUpdated,
} from './events/lightbox-events';

/** A lightbox with the number of its assets its owner can still see. */
export interface LightboxView {
  lightbox: LightboxEntity;
  size: number;
}

/** A lightbox the actor may reach, with its owner's visibility rule for the assets in it. */
export interface OwnedLightbox {
  lightbox: LightboxEntity;
  /** The owner with their grants: the assets in a lightbox are judged by the owner's eyes. */
  viewer: Viewer;
}

/**
 * Lightboxes (spec 4.4): each belongs to its user, who alone reaches it; admins and the application
 * user reach everyone's. Anyone else's are 404, as if they did not exist (DESIGN §6).
 */
@Injectable()
export class LightboxesService {
  constructor(
    private readonly lightboxes: LightboxesRepository,
    private readonly users: UsersService,
    private readonly permissions: PermissionsService,
    private readonly assets: AssetQueries,
    private readonly events: DomainEvents,
    private readonly urls: UrlService,
  ) {}

  /** In creation order; one page of them when `paging` is given. */
  async list(
    actor: ActorUser,
    ownerId: number,
    paging?: Paging,
  ): Promise<{ views: LightboxView[]; total: number }> {
    const owner = await this.ownerOrThrow(actor, ownerId);
    const all = await this.lightboxes.listOf(owner.id);
    const page = paging === undefined ? all : all.slice(paging.offset, paging.offset + paging.pageSize);
    return { views: await this.withSizes(await this.viewerOf(owner), page), total: all.length };
  }

  async create(actor: ActorUser, ownerId: number, request: LightboxWriteDto): Promise<LightboxView> {
    const owner = await this.ownerOrThrow(actor, ownerId);
    const name = lightboxName(request.name, () => new LightboxNameMissing());
    const now = new Date();
    const lightbox = Object.assign(new LightboxEntity(), {
      userId: owner.id,
      name,
      nameKey: lightboxNameKey(name),
      description: lightboxDescription(request.description),
      createdAt: now,
      updatedAt: now,
    });
    const saved = await this.lightboxes.save(lightbox, (manager, id) =>
      this.events.record(manager, new LightboxCreated(lightboxEventData(this.urls, owner.id, id, actor.id))),
    );
    return { lightbox: saved, size: 0 };
  }

  async get(actor: ActorUser, ownerId: number, lightboxId: number): Promise<LightboxView> {
    const owned = await this.ownedOrThrow(actor, ownerId, lightboxId);
    return (await this.withSizes(owned.viewer, [owned.lightbox]))[0] ?? { lightbox: owned.lightbox, size: 0 };
  }

  /** Changes the name and/or the description; fields left out stay as they are. */
  async update(
    actor: ActorUser,
    ownerId: number,
    lightboxId: number,
    request: LightboxWriteDto,
  ): Promise<LightboxView> {
    const { lightbox } = await this.ownedOrThrow(actor, ownerId, lightboxId);
    if (request.name !== undefined) {
      lightbox.name = lightboxName(request.name, () => new InvalidInput('a lightbox name cannot be blank'));
      lightbox.nameKey = lightboxNameKey(lightbox.name);
    }
    if (request.description !== undefined) lightbox.description = lightboxDescription(request.description);
    lightbox.updatedAt = new Date();
    await this.lightboxes.save(lightbox, (manager) =>
      this.events.record(
        manager,
        new LightboxUpdated(lightboxEventData(this.urls, lightbox.userId, lightbox.id, actor.id)),
      ),
    );
    return this.get(actor, ownerId, lightboxId);
  }

  async delete(actor: ActorUser, ownerId: number, lightboxId: number): Promise<void> {
    const { lightbox } = await this.ownedOrThrow(actor, ownerId, lightboxId);
    await this.lightboxes.delete(lightbox.id, (manager) =>
      this.events.record(
        manager,
        new LightboxDeleted(lightboxEventData(this.urls, lightbox.userId, lightbox.id, actor.id)),
      ),
    );
  }

  async ownedOrThrow(actor: ActorUser, ownerId: number, lightboxId: number): Promise<OwnedLightbox> {
    const owner = await this.ownerOrThrow(actor, ownerId);
    const lightbox = await this.lightboxes.findOwned(owner.id, lightboxId);
    if (lightbox === null) throw new LightboxNotFound(lightboxId);
    return { lightbox, viewer: await this.viewerOf(owner) };
  }

  /** Which of `assetIds` exist and are visible to `viewer`, in their order (asked of the assets area). */
  async visibleAssetIds(viewer: Viewer, assetIds: number[]): Promise<number[]> {
    if (assetIds.length === 0) return [];
    return this.assets.matching(assetIds, { visibleTo: viewer });
  }

  private async ownerOrThrow(actor: ActorUser, ownerId: number): Promise<ActorUser> {
    if (!isSelfOrAdmin(actor, ownerId)) throw new OthersLightboxes(ownerId);
    if (ownerId === actor.id) return actor;
    const owner = await this.users.findActor(ownerId);
    if (owner === null) throw new UnknownResource(`user ${ownerId} does not exist`);
    return owner;
  }

  /** Each lightbox with the number of its assets the owner can still see (one question to the assets area). */
  private async withSizes(viewer: Viewer, lightboxes: LightboxEntity[]): Promise<LightboxView[]> {
    const members = await this.lightboxes.members(lightboxes.map((lightbox) => lightbox.id));
    const visible = new Set(
      await this.visibleAssetIds(viewer, [...new Set(members.map((member) => member.assetId))]),
    );
    const sizes = new Map<number, number>();
    for (const { lightboxId, assetId } of members) {
      if (visible.has(assetId)) sizes.set(lightboxId, (sizes.get(lightboxId) ?? 0) + 1);
    }
    return lightboxes.map((lightbox) => ({ lightbox, size: sizes.get(lightbox.id) ?? 0 }));
  }

  private async viewerOf(owner: ActorUser): Promise<Viewer> {
    return { actor: owner, grants: await this.permissions.grantsFor(owner) };
  }
}
