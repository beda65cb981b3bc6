import { Injectable } from '@nestjs/common';
import { AccessGrants, ActorUser, PermissionsService } from '@dam/access';
import { NotPermitted, Paging } from '@dam/platform';
import { AssetReader } from './asset-reader.service';
import { AssetWritesRepository } from './asset-writes.repository';
import { AssetCondition } from './assets.repository';

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
    private readonly permissions: PermissionsService,
  ) {}

  /** Makes an asset awaiting upload approval live and applies its pending edits, in one transaction. */
  async approve(actor: ActorUser, id: number): Promise<void> {
    const { placed, grants } = await this.reader.visibleOrThrow(actor, id);
    if (!grants.onEvery(placed.accessLevelIds, 'approve')) {
      throw new NotPermitted('you need approve permission on every access level of the asset');
    }
    await this.writes.approve(id);
  }

  async pendingUploads(actor: ActorUser, paging?: Paging): Promise<IdPage> {
    const condition = approvableCondition(await this.permissions.grantsFor(actor));
    if (condition === null) return { ids: [], total: 0 };
    return this.writes.pendingUploadIds(
      condition,
      paging && { offset: paging.offset, limit: paging.pageSize },
    );
  }

  async pendingEdits(actor: ActorUser, paging?: Paging): Promise<IdPage> {
    const condition = approvableCondition(await this.permissions.grantsFor(actor));
    if (condition === null) return { ids: [], total: 0 };
    return this.writes.pendingEditIds(condition, paging && { offset: paging.offset, limit: paging.pageSize });
  }
}

/**
 * Assets on the alias `a` the actor may approve (approve on every one of their levels): undefined for
 * everything, null for nothing.
 */
function approvableCondition(grants: AccessGrants): AssetCondition | undefined | null {
  if (grants.all) return undefined;
  const levels = grants.levelsWith('approve');
  if (levels.length === 0) return null;
  return {
    sql:
      'NOT EXISTS (SELECT 1 FROM asset_access_levels ap WHERE ap.asset_id = a.id ' +
      'AND ap.access_level_id NOT IN (:...approveLevels))',
    params: { approveLevels: levels },
  };
}
