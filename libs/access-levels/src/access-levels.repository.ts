import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ACCESS_LEVELS_GENERATION } from '@dam/access';
import { TreeLink as LevelLink } from '@dam/core';
import { CacheGenerations, refuseForeignKeyViolations } from '@dam/database';
import { InTransaction } from '@dam/events';
import { FieldTexts, TranslationsService } from '@dam/i18n';
import { DataSource, EntityManager, In, IsNull, Not } from 'typeorm';
import { AccessLevelsCache } from './access-levels.cache';
import { AccessLevelEntity } from './entities/access-level.entity';

/** Entity type of access level texts in the translations table. */
export const ACCESS_LEVEL_TRANSLATIONS = 'access-level';

const TREE_CHANGED =
  'the access levels changed meanwhile: a parent is gone, or a level gained sub-access levels or assets';

/** Texts in one non-default language; undefined leaves a field alone, null removes its translation. */
export interface LevelTranslation {
  language: string;
  name?: string;
  description?: string | null;
}

/** Column changes of one level, and its texts in a non-default language. */
export interface LevelUpdate {
  id: number;
  columns: Partial<AccessLevelEntity>;
  translation?: LevelTranslation;
}

export interface LevelImage {
  key: string;
  filename: string;
  contentType: string;
}

/** All TypeORM access for access levels. Multi-row writes run in one transaction. */
@Injectable()
export class AccessLevelsRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly translations: TranslationsService,
    private readonly cache: AccessLevelsCache,
    private readonly generations: CacheGenerations,
  ) {}

  /**
   * Every level, ordered by id, from the cache: the tree is small (thousands at most) and every read
   * needs the permission structure. Shared objects: never change them.
   */
  async findAll(): Promise<readonly AccessLevelEntity[]> {
    return (await this.cache.get()).levels;
  }

  findById(id: number): Promise<AccessLevelEntity | null> {
    return this.dataSource.getRepository(AccessLevelEntity).findOneBy({ id });
  }

  findByIds(ids: number[]): Promise<AccessLevelEntity[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.dataSource.getRepository(AccessLevelEntity).findBy({ id: In(ids) });
  }

  /** Stored texts of the levels in one non-default language, by level id. */
  textsIn(language: string, ids: number[]): Promise<Map<number, FieldTexts>> {
    return this.translations.load(ACCESS_LEVEL_TRANSLATIONS, ids, language);
  }

  /** Inserts a level and, when written in another language, that language's texts too. */
  async create(
    level: AccessLevelEntity,
    translation?: LevelTranslation,
    within?: InTransaction,
  ): Promise<AccessLevelEntity> {
    return refuseForeignKeyViolations(TREE_CHANGED, () =>
      this.dataSource.transaction(async (manager) => {
        const saved = await manager.getRepository(AccessLevelEntity).save(level);
        if (translation !== undefined) await this.saveTranslation(manager, saved.id, translation);
        await within?.(manager, saved.id);
        await this.generations.bump(ACCESS_LEVELS_GENERATION, manager);
        return saved;
      }),
    );
  }

  /**
   * Applies the updates together. With the tree locked (on MySQL every level row, in id order so that
   * concurrent writers cannot deadlock), `check` sees the current links and may refuse by throwing.
   */
  async update(
    updates: LevelUpdate[],
    check: (links: LevelLink[]) => void,
    within?: InTransaction<number[]>,
  ): Promise<void> {
    await refuseForeignKeyViolations(TREE_CHANGED, () =>
      this.dataSource.transaction(async (manager) => {
        check(await this.lockTree(manager));
        const levels = manager.getRepository(AccessLevelEntity);
        for (const { id, columns, translation } of updates) {
          await levels.update({ id }, { ...columns, updatedAt: new Date() });
          if (translation !== undefined) await this.saveTranslation(manager, id, translation);
        }
        await within?.(
          manager,
          updates.map((update) => update.id),
        );
        await this.generations.bump(ACCESS_LEVELS_GENERATION, manager);
      }),
    );
  }

  /**
   * Deletes levels (children before parents) with their texts; the groups' permissions on them go with
   * them (group_permissions.access_level_id cascades). A child or asset added meanwhile makes the
   * database refuse: a 400.
   */
  async delete(idsInOrder: number[], within?: InTransaction<number[]>): Promise<void> {
    await refuseForeignKeyViolations(TREE_CHANGED, () =>
      this.dataSource.transaction(async (manager) => {
        for (const id of idsInOrder) {
          await this.translations.deleteAll(ACCESS_LEVEL_TRANSLATIONS, id, manager);
          await manager.getRepository(AccessLevelEntity).delete({ id });
        }
        await within?.(manager, idsInOrder);
        await this.generations.bump(ACCESS_LEVELS_GENERATION, manager);
      }),
    );
  }

  /** Points the level at a new image (or none); the replaced key, or undefined when the level is gone. */
  async replaceImage(
    id: number,
    image: LevelImage | null,
  ): Promise<{ previousKey: string | null } | undefined> {
    return this.dataSource.transaction(async (manager) => {
      const [current] = await this.lockRows(manager, 'SELECT id, image_key FROM access_levels WHERE id = ?', [
        id,
      ]);
      if (current === undefined) return undefined;
      await manager.getRepository(AccessLevelEntity).update(
        { id },
        {
          imageKey: image?.key ?? null,
          imageFilename: image?.filename ?? null,
          imageContentType: image?.contentType ?? null,
        },
      );
      await this.generations.bump(ACCESS_LEVELS_GENERATION, manager);
      return { previousKey: typeof current.image_key === 'string' ? current.image_key : null };
    });
  }

  /** Every image key a level refers to, read from the database (not the cache: another instance may have written). */
  async imageKeys(): Promise<string[]> {
    const rows = await this.dataSource
      .getRepository(AccessLevelEntity)
      .find({ select: { id: true, imageKey: true }, where: { imageKey: Not(IsNull()) } });
    return rows.flatMap((row) => (row.imageKey === null ? [] : [row.imageKey]));
  }

  /** Which of `keys` a level's image refers to (asked by the orphan sweep). */
  async referencedImageKeys(keys: string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const rows = await this.dataSource
      .getRepository(AccessLevelEntity)
      .find({ select: { id: true, imageKey: true }, where: { imageKey: In(keys) } });
    return new Set(rows.flatMap((row) => (row.imageKey === null ? [] : [row.imageKey])));
  }

  private async lockTree(manager: EntityManager): Promise<LevelLink[]> {
    const rows = await this.lockRows(manager, 'SELECT id, parent_id FROM access_levels ORDER BY id', []);
    return rows.map((row) => ({
      id: Number(row.id),
      parentId: row.parent_id === null ? null : Number(row.parent_id),
    }));
  }

  /** Reads rows locked until the transaction ends: FOR UPDATE on MySQL; SQLite has a single writer. */
  private lockRows(
    manager: EntityManager,
    sql: string,
    params: unknown[],
  ): Promise<Array<Record<string, unknown>>> {
    const locking = this.dataSource.options.type === 'mysql' ? `${sql} FOR UPDATE` : sql;
    return manager.query(locking, params);
  }

  private async saveTranslation(
    manager: EntityManager,
    id: number,
    translation: LevelTranslation,
  ): Promise<void> {
    const { language, ...fields } = translation;
    for (const [field, text] of Object.entries(fields)) {
      if (text === undefined) continue;
      await this.translations.save(ACCESS_LEVEL_TRANSLATIONS, id, field, language, text, manager);
    }
  }
}
