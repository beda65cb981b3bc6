import { Injectable } from '@nestjs/common';
import { AccessLevelTree, LevelNode } from '@dam/access';
import { AccessLevelsCache } from './access-levels.cache';

/** The AccessLevelTree port of access: every level's parent link and permission flag, from the cache. */
@Injectable()
export class AccessLevelTreeService extends AccessLevelTree {
  constructor(private readonly cache: AccessLevelsCache) {
    super();
  }

  async nodes(): Promise<readonly LevelNode[]> {
    return (await this.cache.get()).nodes;
  }
}
