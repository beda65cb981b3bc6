import { Injectable } from '@nestjs/common';
import { ActorUser, isPrivileged, PermissionsService } from '@dam/access';
import { idsOf, TreeNode, visibleForest } from '@dam/core';
import { LanguageService } from '@dam/i18n';
import { AccessLevelsRepository } from './access-levels.repository';
import { LevelAssetCounts } from './ports/level-asset-counts.port';
import { AccessLevelEntity } from './entities/access-level.entity';

/** A level as one reader sees it: texts in their language, the visible levels below, and the count. */
export interface AccessLevelView {
  level: AccessLevelEntity;
  name: string;
  description: string | null;
  children: AccessLevelView[];
  /** Assets directly in the level, when counts were asked for. */
  count?: number;
}

/**
 * Which assets a count covers: every asset in the level, or only those the reader may see (the rule
 * of DESIGN §5, as GET applies it).
 */
export type CountScope = 'none' | 'all' | 'visible';

export interface ForestOptions {
  /** Only this level and the levels below it. */
  rootId?: number;
  counts: CountScope;
}

/**
 * Builds the trees of access levels one actor may view (the levels where they hold `view`), with texts
 * in the request's language and counts from one aggregate query, in a fixed number of queries however
 * large the tree.
 */
@Injectable()
export class AccessLevelReader {
  constructor(
    private readonly levels: AccessLevelsRepository,
    private readonly permissions: PermissionsService,
    private readonly languages: LanguageService,
    private readonly assetCounts: LevelAssetCounts,
  ) {}

  async visibleIds(actor: ActorUser): Promise<number[]> {
    return (await this.permissions.grantsFor(actor)).levelsWith('view');
  }

  async forest(actor: ActorUser, options: ForestOptions): Promise<AccessLevelView[]> {
    const [levels, grants] = await Promise.all([this.levels.findAll(), this.permissions.grantsFor(actor)]);
    const visible = new Set(
      isPrivileged(actor) ? levels.map((level) => level.id) : grants.levelsWith('view'),
    );
    const forest = visibleForest(levels, visible, options.rootId);
    const ids = idsOf(forest);
    const language = this.languages.readLanguage();
    const [texts, counts] = await Promise.all([
      this.languages.isDefault(language) ? undefined : this.levels.textsIn(language, ids),
      options.counts === 'none'
        ? undefined
        : options.counts === 'visible'
          ? this.assetCounts.countPerLevel(ids, { actor, grants })
          : this.assetCounts.countPerLevel(ids.length === levels.length ? undefined : ids),
    ]);
    const view = (branch: TreeNode<AccessLevelEntity>): AccessLevelView => {
      const translated = texts?.get(branch.item.id);
      return {
        level: branch.item,
        name: translated?.get('name') ?? branch.item.name,
        description: translated?.get('description') ?? branch.item.description,
        children: branch.children.map(view),
        count: counts === undefined ? undefined : (counts.get(branch.item.id) ?? 0),
      };
    };
    return forest.map(view);
  }

  /** The level with the levels below it the actor may view, or undefined when they may not view it. */
  async one(actor: ActorUser, id: number, counts: CountScope): Promise<AccessLevelView | undefined> {
    const [first] = await this.forest(actor, { rootId: id, counts });
    return first?.level.id === id ? first : undefined;
  }
}
