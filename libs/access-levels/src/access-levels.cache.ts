import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { ACCESS_LEVELS_GENERATION, LevelNode } from '@dam/access';
import { CacheGenerations, GenerationCached } from '@dam/database';
import { Repository } from 'typeorm';
import { AccessLevelEntity } from './entities/access-level.entity';

/** Every level, as loaded once for one generation. Shared: callers must not change it. */
export interface LevelSnapshot {
  /** Ordered by id. */
  levels: readonly AccessLevelEntity[];
  /** The same levels as permission inheritance needs them. */
  nodes: readonly LevelNode[];
}

/**
 * The whole level tree in memory (it is small: thousands at most, and every permission decision needs
 * it), loaded again when the 'access-levels' generation moves: every write of this area bumps it in its
 * transaction (AccessLevelsRepository), so other instances follow within a second.
 */
@Injectable()
export class AccessLevelsCache {
  private readonly snapshot: GenerationCached<LevelSnapshot>;

  constructor(
    @InjectRepository(AccessLevelEntity) private readonly levels: Repository<AccessLevelEntity>,
    generations: CacheGenerations,
  ) {
    this.snapshot = new GenerationCached(generations, [ACCESS_LEVELS_GENERATION], () => this.load());
  }

  get(): Promise<LevelSnapshot> {
    return this.snapshot.get();
  }

  private async load(): Promise<LevelSnapshot> {
    const levels = await this.levels.find({ order: { id: 'ASC' } });
    for (const level of levels) Object.freeze(level);
    const nodes = levels.map(({ id, parentId, hasPermissions }) =>
      Object.freeze({ id, parentId, hasPermissions }),
    );
    return { levels: Object.freeze(levels), nodes: Object.freeze(nodes) };
  }
}
