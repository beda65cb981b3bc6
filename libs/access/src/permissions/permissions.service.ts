import { Injectable } from '@nestjs/common';
import { ActorUser, isPrivileged } from '../auth/actor';
import { AccessGrants } from './access-grants';
import { computeGrants } from './permission-tree';
import { PermissionsRepository } from './permissions.repository';

/**
 * The one place that answers "may actor A do P on access levels L" (DESIGN §5). Every area asks here.
 */
@Injectable()
export class PermissionsService {
  constructor(private readonly repository: PermissionsRepository) {}

  async grantsFor(actor: ActorUser): Promise<AccessGrants> {
    const levels = await this.repository.levelTree();
    if (isPrivileged(actor)) return AccessGrants.everything(levels.map((level) => level.id));
    const rows = await this.repository.permissionsOfUser(actor.id);
    return computeGrants(levels, rows);
  }
}
