import { Injectable } from '@nestjs/common';
import { CacheGenerations, GenerationLru } from '@dam/database';
import { ActorUser, isPrivileged } from '../actor/actor';
import { ACCESS_GENERATION } from '../users/users.repository';
import { AccessGrants } from './access-grants';
import { ACCESS_LEVELS_GENERATION, AccessLevelTree } from './access-level-tree.port';
import { computeGrants } from './permission-tree';
import { PermissionsRepository } from './permissions.repository';

/**
 * The one place that answers "may actor A do P on access levels L" (DESIGN §5). Every area asks here.
 */
@Injectable()
export class PermissionsService {
  /**
   * Grants per actor, while neither the access area (groups, memberships, users) nor the level tree
   * changed: both generations are bumped by their writers, so every instance follows within a second.
   */
  private readonly grants: GenerationLru<string, AccessGrants>;

  constructor(
    private readonly repository: PermissionsRepository,
    private readonly tree: AccessLevelTree,
    generations: CacheGenerations,
  ) {
    this.grants = new GenerationLru(generations, [ACCESS_GENERATION, ACCESS_LEVELS_GENERATION], {
      capacity: 5000,
    });
  }

  grantsFor(actor: ActorUser): Promise<AccessGrants> {
    return this.grants.get(grantsKey(actor), () => this.computeFor(actor));
  }

  /** The actor's grants when held in memory and current, without a promise (the hot read's path). */
  heldGrantsFor(actor: ActorUser): AccessGrants | undefined {
    return this.grants.peek(grantsKey(actor));
  }

  private async computeFor(actor: ActorUser): Promise<AccessGrants> {
    const levels = await this.tree.nodes();
    if (isPrivileged(actor)) return AccessGrants.everything(levels.map((level) => level.id));
    const rows = await this.repository.permissionsOfUser(actor.id);
    return computeGrants(levels, rows);
  }
}

function grantsKey(actor: ActorUser): string {
  return `${actor.id}:${isPrivileged(actor)}`;
}
