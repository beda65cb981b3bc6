import { Injectable } from '@nestjs/common';
import { ActorUser, PermissionsService } from '@dam/access';
import { NotPermitted } from '@dam/errors';
import { DomainEvents } from '@dam/events';
import { Paging, UrlService } from '@dam/http';
import { AssetReader } from './asset-reader.service';
import { AssetWritesRepository } from './asset-writes.repository';
import { AssetApproved, assetEventData } from './events/asset-events';
import { InternalFilter } from './queries/asset-filter.sql';
import { AssetQueries } from './queries/asset-queries.service';

export interface IdPage {
  ids: number[];
  total: number;
}

/** The approval workflow (spec 3): approving assets and the queues of what awaits approval. */
@Injectable()
export class AssetApprovalsService {
  constructor(
    private readonly writes: AssetWritesRepository,
    private readonly reader: AssetReader,
    private readonly queries: AssetQueries,
    private readonly permissions: PermissionsService,
    private readonly events: DomainEvents,
    private readonly urls: UrlService,
  ) {}

  /** Makes an asset awaiting upload approval live and applies its pending edits, in one transaction. */
  async approve(actor: ActorUser, id: number): Promise<void> {
    const { placed, grants } = await this.reader.visibleOrThrow(actor, id);
    if (!grants.onEvery(placed.accessLevelIds, 'approve')) {
      throw new NotPermitted('you need approve permission on every access level of the asset');
    }
    await this.writes.approve(id, (manager) =>
      this.events.record(manager, new AssetApproved(assetEventData(this.urls, id, actor.id))),
    );
  }

  /** Submitted assets awaiting upload approval that the actor may approve. */
  pendingUploads(actor: ActorUser, paging?: Paging): Promise<IdPage> {
    return this.queue(actor, { awaitingUploadApproval: true }, paging);
  }

  /** Assets with attribute edits or content awaiting edit approval that the actor may approve. */
  pendingEdits(actor: ActorUser, paging?: Paging): Promise<IdPage> {
    return this.queue(actor, { pendingEdit: true }, paging);
  }

  /** A queue holds what the actor may approve: approve on every level of the asset. */
  private async queue(actor: ActorUser, filter: InternalFilter, paging?: Paging): Promise<IdPage> {
    const grants = await this.permissions.grantsFor(actor);
    if (!grants.all && grants.levelsWith('approve').length === 0) return { ids: [], total: 0 };
    const approvable: InternalFilter = { ...filter, approvableBy: { actor, grants } };
    if (paging === undefined) {
      const ids = await this.queries.ids(approvable);
      return { ids, total: ids.length };
    }
    return this.queries.page(approvable, { kind: 'id' }, false, paging.offset, paging.pageSize);
  }
}
