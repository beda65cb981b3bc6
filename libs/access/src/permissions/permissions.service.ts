import { Injectable } from '@nestjs/common';
import { ActorUser, isPrivileged } from '../auth/actor';
import { AccessGrants } from './access-grants';
import { AccessLevelTree } from './access-level-tree.port';
import { computeGrants } from './permission-tree';
import { PermissionsRepository } from './permissions.repository';

/**
 * The one place that answers "may actor A do P on access levels L" (DESIGN §5). Every area asks here.
 */
@Injectable()
export class PermissionsService {
  constructor(
    private readonly repository: PermissionsRepository,
    private readonly tree: AccessLevelTree,
  ) {}

  async grantsFor(actor: ActorUser): Promise<AccessGrants> {
    const levels = await this.tree.nodes();
    if (isPrivileged(actor)) return AccessGrants.everything(levels.map((level) => level.id));
    const rows = await this.repository.permissionsOfUser(actor.id);
    return computeGrants(levels, rows);
  }
}
