import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AccessGrants, ActorUser, isPrivileged } from '@dam/access';
import { AttributesCatalog } from '@dam/attributes';
import { InvalidInput, NotPermitted } from '@dam/errors';
import { DomainEvent, DomainEvents } from '@dam/events';
import { ifMatchOrThrow, UrlService } from '@dam/http';
import { LanguageService } from '@dam/i18n';
import { auditChanges } from './asset-audit-changes';
import { AssetChangesBuilder } from './asset-changes.builder';
import { AssetChanges, isEmpty } from './asset-changes';
import { editOutcome, Outcome, uploadOutcome } from './rules/asset-permissions';
import { AssetReader } from './asset-reader.service';
import { AssetFlags, AssetWritesRepository } from './asset-writes.repository';
import { AssetRepresentation } from './asset.mapper';
import { AssetsRepository } from './assets.repository';
import { AssetEditLocks } from './ports/asset-edit-locks.port';
import { PlacedAsset } from './ports/asset-state';
import { isLive } from './rules/asset-visibility';
import { readUpdateAssetRequest, UpdateAssetDto } from './dto/update-asset.request';
import { AssetArchived, assetEventData, AssetSubmitted, AssetUpdated } from './events/asset-events';

/**
 * PUT of an asset (spec 4.5.3 and the states of spec 3). Everything is validated before anything is
 * written, and all of one PUT is written in one transaction.
 */
@Injectable()
export class AssetUpdatesService {
  constructor(
    private readonly assets: AssetsRepository,
    private readonly writes: AssetWritesRepository,
    private readonly reader: AssetReader,
    private readonly builder: AssetChangesBuilder,
    private readonly languages: LanguageService,
    private readonly locks: AssetEditLocks,
    private readonly events: DomainEvents,
    private readonly urls: UrlService,
    private readonly catalog: AttributesCatalog,
  ) {}

  /** `ifMatch`: the request's `If-Match`; a tag of an earlier version of the asset is a 412. */
  async update(
    actor: ActorUser,
    id: number,
    body: UpdateAssetDto,
    ifMatch?: string,
  ): Promise<AssetRepresentation> {
    const request = readUpdateAssetRequest(body);
    const { placed, grants } = await this.reader.visibleOrThrow(actor, id);
    const { asset } = placed;
    ifMatchOrThrow(ifMatch, asset.version ?? 0, 'the asset');
    await this.locks.assertEditableBy(actor, id);
    if (request.submitted === false && asset.submitted) {
      throw new InvalidInput('an asset that has been submitted cannot be unsubmitted');
    }
    const archiving = request.archived !== undefined && request.archived !== asset.archived;
    if (archiving && !isPrivileged(actor))
      throw new NotPermitted('only administrators may archive or unarchive assets');
    const submitting = request.submitted === true && !asset.submitted;
    const editMode = editModeOrThrow(actor, grants, placed, submitting);

    const writeKey = this.reader.storageKey(this.languages.writeLanguage());
    const state = await this.assets.loadState(placed, [...new Set(['', writeKey])]);
    const changes = await this.builder.build(actor, grants, state, request, writeKey);

    const flags: AssetFlags = {};
    if (archiving) flags.archived = request.archived;
    if (submitting) {
      const outcome = uploadOutcome(grants, changes.accessLevelIds ?? placed.accessLevelIds);
      if (outcome === 'refused') {
        throw new NotPermitted('you need upload permission on every access level of the asset to submit it');
      }
      flags.submitted = true;
      flags.uploadPending = outcome === 'approval';
    }
    const live = isLive({
      submitted: flags.submitted ?? asset.submitted,
      uploadPending: flags.uploadPending ?? asset.uploadPending,
    });
    addedLevelsOrThrow(grants, placed.accessLevelIds, changes, editMode === 'approval' || !live);

    const data = assetEventData(this.urls, id, actor.id);
    const events: DomainEvent[] = [];
    if (!isEmpty(changes) || flags.archived === false) {
      // The audit log's before and after (stored for approval or applied, as the event says).
      const audited = await auditChanges(this.catalog, this.languages.defaultLanguage, state, changes);
      if (flags.archived === false) audited.archived = { before: true, after: false };
      events.push(new AssetUpdated(data).withChanges(audited));
    }
    if (flags.submitted === true) events.push(new AssetSubmitted(data));
    if (flags.archived === true) events.push(new AssetArchived(data));
    const recordEvents = (manager: EntityManager) => this.events.record(manager, ...events);
    if (editMode === 'approval' && !isEmpty(changes)) {
      await this.writes.update(
        id,
        { apply: { values: [] }, pending: { editedByUserId: actor.id, changes }, flags },
        recordEvents,
      );
    } else {
      await this.writes.update(id, { apply: changes, flags }, recordEvents);
    }
    return this.reader.representation(id);
  }
}

/**
 * Edit on every level edits directly; edit-with-approval where edit is missing sends the edits through
 * approval. An asset that is not live yet (unsubmitted, or awaiting upload approval) may also be edited
 * by its uploader under the upload permissions it was created with, and submitting it is decided by
 * upload permission (spec 4.5.3), so those edits apply directly.
 */
function editModeOrThrow(
  actor: ActorUser,
  grants: AccessGrants,
  placed: PlacedAsset,
  submitting: boolean,
): Outcome {
  const { asset, accessLevelIds } = placed;
  if (submitting || (asset.addedByUserId === actor.id && !isLive(asset))) {
    if (uploadOutcome(grants, accessLevelIds) !== 'refused') return 'direct';
  }
  const outcome = editOutcome(grants, accessLevelIds);
  if (outcome === 'refused')
    throw new NotPermitted('you need edit permission on every access level of the asset');
  return outcome;
}

/** Moving an asset into a level needs upload there (upload-with-approval when it awaits approval anyway). */
function addedLevelsOrThrow(
  grants: AccessGrants,
  current: number[],
  changes: AssetChanges,
  throughApproval: boolean,
): void {
  const added = (changes.accessLevelIds ?? []).filter((id) => !current.includes(id));
  if (added.length === 0) return;
  const outcome = uploadOutcome(grants, added);
  if (outcome === 'refused' || (outcome === 'approval' && !throughApproval)) {
    throw new NotPermitted('you need upload permission on the access levels you add the asset to');
  }
}
