import { Injectable } from '@nestjs/common';
import { ActorService, ActorUser, PermissionsService } from '@dam/access';
import { AppConfig } from '@dam/core';
import { InvalidInput, NotPermitted } from '@dam/errors';
import { DomainEvents } from '@dam/events';
import { ifMatchOrThrow, UrlService } from '@dam/http';
import { uploadOutcome } from './rules/asset-permissions';
import { AssetReader } from './asset-reader.service';
import { AssetReferences, NO_ACCESS_LEVELS } from './asset-references.service';
import { AssetRepresentation } from './asset.mapper';
import { AssetsRepository } from './assets.repository';
import { CreateAssetDto, readCreateAssetRequest } from './dto/create-asset.request';
import { AssetEditLocks } from './ports/asset-edit-locks.port';
import {
  AssetCreated,
  AssetDeleted,
  assetEventData,
  AssetRejected,
  AssetSubmitted,
  AssetTrashed,
} from './events/asset-events';
import { TrashService } from './trash/trash.service';

/** Creating, reading and deleting assets (spec 4.5 items 1, 2 and 4). Updates: AssetUpdatesService. */
@Injectable()
export class AssetsService {
  constructor(
    private readonly assets: AssetsRepository,
    private readonly reader: AssetReader,
    private readonly references: AssetReferences,
    private readonly permissions: PermissionsService,
    private readonly actors: ActorService,
    private readonly config: AppConfig,
    private readonly locks: AssetEditLocks,
    private readonly events: DomainEvents,
    private readonly urls: UrlService,
    private readonly trash: TrashService,
  ) {}

  /**
   * Upload on every level creates a live asset; upload-with-approval where upload is missing creates
   * one that only its uploader, admins and approvers see until it is approved.
   */
  async create(caller: ActorUser, body: CreateAssetDto): Promise<AssetRepresentation> {
    const request = readCreateAssetRequest(body);
    if (request.accessLevelIds.length === 0) throw new InvalidInput(NO_ACCESS_LEVELS);
    if (this.config.assetTypesEnabled && request.assetTypeUrl === undefined) {
      throw new InvalidInput('you must provide an asset type');
    }
    const actor = await this.actors.resolve(caller, request.createAsUserId, 'createAsUserId');
    await this.references.accessLevelsOrThrow(request.accessLevelIds);
    const assetTypeId =
      request.assetTypeUrl === undefined
        ? null
        : await this.references.assetTypeIdOrThrow(request.assetTypeUrl);
    const outcome = uploadOutcome(await this.permissions.grantsFor(actor), request.accessLevelIds);
    if (outcome === 'refused') {
      throw new NotPermitted(
        'you need upload permission on every one of the access levels to create this asset',
      );
    }
    const id = await this.assets.create(
      {
        submitted: request.submit,
        uploadPending: request.submit && outcome === 'approval',
        assetTypeId,
        addedByUserId: actor.id,
        accessLevelIds: request.accessLevelIds,
      },
      (manager, assetId) => {
        const data = assetEventData(this.urls, assetId, actor.id);
        const events = [new AssetCreated(data), ...(request.submit ? [new AssetSubmitted(data)] : [])];
        return this.events.record(manager, ...events);
      },
    );
    return this.reader.representation(id);
  }

  /** Without a promise when the reader holds all it needs (the warm GET), else its read. */
  get(actor: ActorUser, id: number): AssetRepresentation | Promise<AssetRepresentation> {
    return this.reader.heldRepresentation(actor, id) ?? this.reader.visibleRepresentation(actor, id);
  }

  /** `ifMatch`: the request's `If-Match`; a tag of an earlier version of the asset is a 412. */
  async delete(actor: ActorUser, id: number, ifMatch?: string): Promise<void> {
    const { placed, grants } = await this.reader.visibleOrThrow(actor, id);
    ifMatchOrThrow(ifMatch, placed.asset.version ?? 0, 'the asset');
    if (!grants.onEvery(placed.accessLevelIds, 'delete')) {
      throw new NotPermitted('you need delete permission on every access level of the asset');
    }
    await this.locks.assertEditableBy(actor, id);
    const data = assetEventData(this.urls, id, actor.id);
    // An upload awaiting approval deleted by another (an approver) is how it is turned down.
    const rejected = placed.asset.uploadPending && placed.asset.addedByUserId !== actor.id;
    const keep = await this.trash.keeper(actor.id);
    const events = [
      ...(rejected ? [new AssetRejected(data)] : []),
      new AssetDeleted(data),
      ...(keep === undefined ? [] : [new AssetTrashed(data)]),
    ];
    await this.assets.delete(id, (manager) => this.events.record(manager, ...events), keep);
  }
}
