import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { TreeLink as CategoryLink } from '@dam/core';
import { isForeignKeyViolation } from '@dam/database';
import { InvalidInput } from '@dam/errors';
import { InTransaction } from '@dam/events';
import { FieldTexts, TranslationsService } from '@dam/i18n';
import { DataSource, EntityManager, In } from 'typeorm';
import { CategoryEntity } from './entities/category.entity';

/** Entity type of category texts in the translations table. */
export const CATEGORY_TRANSLATIONS = 'category';

/** Texts in one non-default language; undefined leaves a field alone, null removes its translation. */
export interface CategoryTranslation {
  language: string;
  name?: string;
  description?: string | null;
}

export interface CategoryChanges {
  name?: string;
  description?: string | null;
  parentId?: number | null;
  translation?: CategoryTranslation;
}

/** All TypeORM access for categories. Multi-row writes run in one transaction. */
@Injectable()
export class CategoriesRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly translations: TranslationsService,
  ) {}

  findAll(): Promise<CategoryEntity[]> {
    return this.dataSource.getRepository(CategoryEntity).find({ order: { id: 'ASC' } });
  }

  /** The ids among `ids` that name a category. */
  async existingIds(ids: number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await this.dataSource
      .getRepository(CategoryEntity)
      .find({ select: { id: true }, where: { id: In(ids) } });
    return rows.map((row) => row.id);
  }

  findById(id: number): Promise<CategoryEntity | null> {
    return this.dataSource.getRepository(CategoryEntity).findOneBy({ id });
  }

  /** Stored texts of the categories in one non-default language, by category id. */
  textsIn(language: string, ids: number[]): Promise<Map<number, FieldTexts>> {
    return this.translations.load(CATEGORY_TRANSLATIONS, ids, language);
  }

  async listIds(page?: { offset: number; limit: number }): Promise<{ ids: number[]; total: number }> {
    const [rows, total] = await this.dataSource.getRepository(CategoryEntity).findAndCount({
      select: { id: true },
      order: { id: 'ASC' },
      skip: page?.offset,
      take: page?.limit,
    });
    return { ids: rows.map((row) => row.id), total };
  }

  /** Inserts a category and, when written in another language, that language's texts too. */
  async create(
    category: CategoryEntity,
    translation?: CategoryTranslation,
    within?: InTransaction,
  ): Promise<CategoryEntity> {
    return this.writing(() =>
      this.dataSource.transaction(async (manager) => {
        const saved = await manager.getRepository(CategoryEntity).save(category);
        if (translation !== undefined) await this.saveTranslation(saved.id, translation, manager);
        await within?.(manager, saved.id);
        return saved;
      }),
    );
  }

  /**
   * Applies changes to one category. With the tree locked (on MySQL, every category row, in id order so
   * concurrent moves cannot deadlock), `checkTree` sees the current links and may refuse the change by
   * throwing. Returns false when the category does not exist.
   */
  async update(
    id: number,
    changes: CategoryChanges,
    checkTree: (links: CategoryLink[]) => void,
    within?: InTransaction,
  ): Promise<boolean> {
    return this.writing(() =>
      this.dataSource.transaction(async (manager) => {
        const links = await this.lockedLinks(manager);
        if (!links.some((link) => link.id === id)) return false;
        checkTree(links);
        const columns: Partial<CategoryEntity> = { updatedAt: new Date() };
        if (changes.name !== undefined) columns.name = changes.name;
        if (changes.description !== undefined) columns.description = changes.description;
        if (changes.parentId !== undefined) columns.parentId = changes.parentId;
        await manager.getRepository(CategoryEntity).update({ id }, columns);
        if (changes.translation !== undefined) await this.saveTranslation(id, changes.translation, manager);
        await within?.(manager, id);
        return true;
      }),
    );
  }

  async hasChildren(id: number): Promise<boolean> {
    return this.dataSource.getRepository(CategoryEntity).exists({ where: { parentId: id } });
  }

  /** Deletes a category and its texts; a child or asset added meanwhile makes the database refuse (400). */
  async delete(id: number, within?: InTransaction): Promise<void> {
    await this.writing(() =>
      this.dataSource.transaction(async (manager) => {
        await this.translations.deleteAll(CATEGORY_TRANSLATIONS, id, manager);
        const deleted = await manager.getRepository(CategoryEntity).delete({ id });
        if ((deleted.affected ?? 0) > 0) await within?.(manager, id);
      }),
    );
  }

  /** Parent links of every category; on MySQL locked for update until the transaction ends. */
  private async lockedLinks(manager: EntityManager): Promise<CategoryLink[]> {
    const query = manager
      .getRepository(CategoryEntity)
      .createQueryBuilder('c')
      .select(['c.id', 'c.parentId'])
      .orderBy('c.id', 'ASC');
    // SQLite has a single writer and no row locks; MySQL/MariaDB lock the rows read.
    if (this.dataSource.options.type === 'mysql') query.setLock('pessimistic_write');
    const rows = await query.getMany();
    return rows.map((row) => ({ id: row.id, parentId: row.parentId }));
  }

  private async saveTranslation(
    id: number,
    translation: CategoryTranslation,
    manager: EntityManager,
  ): Promise<void> {
    const { language, name, description } = translation;
    if (name !== undefined)
      await this.translations.save(CATEGORY_TRANSLATIONS, id, 'name', language, name, manager);
    if (description !== undefined) {
      await this.translations.save(CATEGORY_TRANSLATIONS, id, 'description', language, description, manager);
    }
  }

  /** Writes that lose a race with a deletion (parent gone) or an insertion (child or asset added). */
  private async writing<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isForeignKeyViolation(error)) {
        throw new InvalidInput(
          'the category changed meanwhile: its parent no longer exists, or it gained subcategories or assets',
        );
      }
      throw error;
    }
  }
}
