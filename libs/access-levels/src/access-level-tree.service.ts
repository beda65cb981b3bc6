import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { AccessLevelTree, LevelNode } from '@dam/access';
import { Repository } from 'typeorm';
import { AccessLevelEntity } from './entities/access-level.entity';

/** The AccessLevelTree port of access: every level's parent link and permission flag, in one query. */
@Injectable()
export class AccessLevelTreeService extends AccessLevelTree {
  constructor(@InjectRepository(AccessLevelEntity) private readonly levels: Repository<AccessLevelEntity>) {
    super();
  }

  async nodes(): Promise<LevelNode[]> {
    const rows = await this.levels.find({
      select: { id: true, parentId: true, hasPermissions: true },
      order: { id: 'ASC' },
    });
    return rows.map(({ id, parentId, hasPermissions }) => ({ id, parentId, hasPermissions }));
  }
}
