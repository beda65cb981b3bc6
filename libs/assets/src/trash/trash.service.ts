import { Injectable } from '@nestjs/common';
import { ActorUser, requireAdmin } from '@dam/access';
import { AttributesCatalog } from '@dam/attributes';
import { AppConfig } from '@dam/core';
import { UnknownResource } from '@dam/errors';
import { DomainEvents, InTransaction } from '@dam/events';
import { Paging, UrlService } from '@dam/http';
import { LanguageService } from '@dam/i18n';
import { PurgeHooks } from '@dam/jobs';
import { ObjectDeletions } from '@dam/storage';
import { AssetReader } from '../asset-reader.service';
import { AssetRepresentation } from '../asset.mapper';
import { assetEventData, AssetPurged, AssetRestored } from '../events/asset-events';
import { AssetSnapshots } from './asset-snapshots';
import { TrashedAsset, TrashRepository } from './trash.repository';

const WHAT = 'manage the trash';
/** Expired ones purged per batch of the job (each in its own transaction). */
const PURGE_BATCH = 50;
const DAY_MS = 86_400_000;

/**
 * The trash (DESIGN §12 "Trash"): a deleted asset's rows kept as a snapshot for DAM_TRASH_RETENTION_DAYS,
 * restored with the same ids, or purged (its objects queued for deletion) by an admin or `purge-trash`.
 */
@Injectable()
export class TrashService {
  constructor(
    private readonly trash: TrashRepository,
    private readonly snapshots: AssetSnapshots,
    private readonly reader: AssetReader,
    private readonly catalog: AttributesCatalog,
    private readonly languages: LanguageService,
    private readonly deletions: ObjectDeletions,
    private readonly events: DomainEvents,
    private readonly urls: UrlService,
    private readonly config: AppConfig,
  ) {}

  /**
   * What the deletion of an asset by `actorId` runs in its transaction before the rows go: keeps their
   * snapshot. Undefined when the trash is off (DAM_TRASH_RETENTION_DAYS=0): the asset is deleted at once.
   */
  async keeper(actorId: number): Promise<InTransaction | undefined> {
    const days = this.config.trashRetentionDays;
    if (days <= 0) return undefined;
    const title = await this.catalog.byStaticName('title', this.languages.defaultLanguage);
    return async (manager, assetId) => {
      const snapshot = await this.snapshots.capture(manager, assetId);
      const titleValue = snapshot.asset.values.find(
        (row) => Number(row.attributeId) === title?.id && row.language === '',
      )?.value;
      const deletedAt = new Date();
      await this.trash.keep(manager, {
        assetId,
        title: typeof titleValue === 'string' ? [...titleValue].slice(0, 255).join('') : null,
        deletedByUserId: actorId,
        deletedAt,
        purgeAt: new Date(deletedAt.getTime() + days * DAY_MS),
        snapshot,
        objectKeys: this.snapshots.objectKeys(snapshot),
      });
    };
  }

  async list(actor: ActorUser, paging: Paging): Promise<{ items: TrashedAsset[]; total: number }> {
    requireAdmin(actor, WHAT);
    return this.trash.page(paging.offset, paging.pageSize);
  }

  /** Puts every row back with the same ids, in one transaction; 404 once restored or purged. */
  async restore(actor: ActorUser, id: number): Promise<AssetRepresentation> {
    requireAdmin(actor, WHAT);
    const snapshot = await this.trash.snapshot(id);
    if (snapshot === undefined) throw new UnknownResource(`trashed asset ${id} does not exist`);
    const typeOf = await this.snapshots.attributeTypesOf(snapshot);
    let assetId: number | undefined;
    await this.trash.withTaken(id, async (manager) => {
      assetId = await this.snapshots.restore(manager, snapshot, typeOf);
      await this.events.record(manager, new AssetRestored(assetEventData(this.urls, assetId, actor.id)));
    });
    if (assetId === undefined) throw new UnknownResource(`trashed asset ${id} does not exist`);
    return this.reader.representation(assetId);
  }

  async purge(actor: ActorUser, id: number): Promise<void> {
    requireAdmin(actor, WHAT);
    if (!(await this.purgeOne(id, actor.id))) throw new UnknownResource(`trashed asset ${id} does not exist`);
  }

  /** For the `purge-trash` job: trashed assets whose time ran out at `now`. */
  async removableIds(now: Date, limit: number): Promise<string[]> {
    return (await this.trash.expiredIds(now, limit)).map(String);
  }

  async purgeExpired(now: Date, hooks: PurgeHooks): Promise<number> {
    let purged = 0;
    for (;;) {
      const ids = await this.trash.expiredIds(now, PURGE_BATCH);
      let progressed = false;
      for (const id of ids) {
        if (!(await this.purgeOne(id, null))) continue;
        purged += 1;
        progressed = true;
        hooks.removed?.(String(id));
      }
      if (ids.length < PURGE_BATCH || !progressed) return purged;
      await hooks.checkpoint?.();
    }
  }

  /** Drops the row and queues its objects for deletion in one transaction; false when it was gone. */
  private async purgeOne(id: number, actorId: number | null): Promise<boolean> {
    let keys: string[] = [];
    const taken = await this.trash.withTaken(id, async (manager, trashed) => {
      keys = trashed.objectKeys;
      await this.deletions.enqueue(manager, keys);
      await this.events.record(manager, new AssetPurged(assetEventData(this.urls, trashed.assetId, actorId)));
    });
    if (taken) this.deletions.deleteSoon(keys);
    return taken;
  }
}
