import { Injectable } from '@nestjs/common';
import { ActorUser, PermissionsService, requireAdmin } from '@dam/access';
import { CategoriesRepository, CategoryChanges, CategoryTranslation } from './categories.repository';
import { LocalizedCategory } from './category.mapper';
import {
  buildForest as buildTree,
  TreeLink as CategoryLink,
  idsOf,
  TreeNode,
  wouldCreateCycle,
} from '@dam/core';
import { InvalidInput } from '@dam/errors';
import { DomainEvents } from '@dam/events';
import { Paging, UrlService } from '@dam/http';
import { LanguageService } from '@dam/i18n';
import { CategorySearchQuery } from './dto/category-search.query';
import { CategoryWriteDto } from './dto/category-write.dto';
import { CategoryEntity } from './entities/category.entity';
import { CategoryAssetCounts } from './ports/category-asset-counts.port';
import {
  categoryChanges,
  CategoryCreated,
  CategoryDeleted,
  categoryEventData,
  CategoryUpdated,
} from './events/category-events';
import { CategoryNotFound } from './category-errors';

const MAX_NAME = 255;
const MAX_DESCRIPTION = 10_000;

export interface CategorySearchResult {
  forest: TreeNode<LocalizedCategory>[];
  /** Visible assets directly in each category, when counts were asked for. */
  counts?: Map<number, number>;
}

/**
 * Rules for categories (DESIGN §6): every authenticated user reads the whole tree (categories carry no
 * permissions of their own); only admins and the application user change it.
 */
@Injectable()
export class CategoriesService {
  constructor(
    private readonly categories: CategoriesRepository,
    private readonly permissions: PermissionsService,
    private readonly languages: LanguageService,
    private readonly urls: UrlService,
    private readonly assetCounts: CategoryAssetCounts,
    private readonly events: DomainEvents,
  ) {}

  listIds(paging?: Paging): Promise<{ ids: number[]; total: number }> {
    return this.categories.listIds(paging && { offset: paging.offset, limit: paging.pageSize });
  }

  /** One category with its descendants, in the language the request reads. */
  async get(id: number): Promise<TreeNode<LocalizedCategory>> {
    const [node] = buildTree(await this.localizedRows(), id);
    if (node === undefined) throw new CategoryNotFound(id);
    return node;
  }

  async search(actor: ActorUser, query: CategorySearchQuery): Promise<CategorySearchResult> {
    const forest = buildTree(await this.localizedRows(), query.parentId);
    if (query.parentId !== undefined && forest.length === 0) throw new CategoryNotFound(query.parentId);
    if (!query.count) return { forest };
    const viewer = { actor, grants: await this.permissions.grantsFor(actor) };
    const counts = await this.assetCounts.countPerCategory(
      query.parentId === undefined ? undefined : idsOf(forest),
      viewer,
    );
    return { forest, counts };
  }

  /**
   * Creates a category. Texts written in a non-default language (Content-Language) are stored as that
   * language's and as the default, so the default language never lacks a name.
   */
  async create(actor: ActorUser, body: CategoryWriteDto | undefined): Promise<TreeNode<LocalizedCategory>> {
    requireAdmin(actor, 'create, change or delete categories');
    const language = this.languages.writeLanguage();
    const name = validName(body?.name);
    const description = validDescription(body?.description);
    const parentId = this.parentIdOf(body?.parent) ?? null;
    if (parentId !== null && (await this.categories.findById(parentId)) === null)
      throw missingParent(parentId);
    const now = new Date();
    const category = Object.assign(new CategoryEntity(), {
      name,
      description,
      parentId,
      createdAt: now,
      updatedAt: now,
    });
    const translation = this.languages.isDefault(language)
      ? undefined
      : { language, name, ...(description === null ? {} : { description }) };
    const created = categoryChanges(undefined, { name, description, parentId });
    const saved = await this.categories.create(category, translation, (manager, id) =>
      this.events.record(
        manager,
        new CategoryCreated(categoryEventData(this.urls, id, actor.id)).withChanges(created),
      ),
    );
    return this.get(saved.id);
  }

  /**
   * Changes the writable fields present in the body (an omitted field is left as it is; `parent: null`
   * makes the category top-level). Texts go to the language named by Content-Language.
   */
  async update(
    actor: ActorUser,
    id: number,
    body: CategoryWriteDto | undefined,
  ): Promise<TreeNode<LocalizedCategory>> {
    requireAdmin(actor, 'create, change or delete categories');
    const language = this.languages.writeLanguage();
    const name = body?.name === undefined ? undefined : validName(body.name);
    const description = body?.description === undefined ? undefined : validDescription(body.description);
    const parentId = this.parentIdOf(body?.parent);
    const changes: CategoryChanges = { parentId };
    if (this.languages.isDefault(language)) Object.assign(changes, { name, description });
    else changes.translation = { language, name, description } satisfies CategoryTranslation;
    const before = (await this.categories.findById(id)) ?? undefined;
    const changed = categoryChanges(before, changes);
    const found = await this.categories.update(
      id,
      changes,
      (links) => checkMove(links, id, parentId),
      (manager) =>
        this.events.record(
          manager,
          new CategoryUpdated(categoryEventData(this.urls, id, actor.id)).withChanges(changed),
        ),
    );
    if (!found) throw new CategoryNotFound(id);
    return this.get(id);
  }

  /** Only an empty category (no subcategories, no assets) can be deleted. */
  async delete(actor: ActorUser, id: number): Promise<void> {
    requireAdmin(actor, 'create, change or delete categories');
    const category = await this.categories.findById(id);
    if (category === null) throw new CategoryNotFound(id);
    if (await this.categories.hasChildren(id)) {
      throw new InvalidInput(`category ${id} has subcategories: delete or move them first`);
    }
    if (await this.assetCounts.hasAssets(id)) {
      throw new InvalidInput(`category ${id} still contains assets: remove them from it first`);
    }
    const deleted = categoryChanges(category, undefined);
    await this.categories.delete(id, (manager) =>
      this.events.record(
        manager,
        new CategoryDeleted(categoryEventData(this.urls, id, actor.id)).withChanges(deleted),
      ),
    );
  }

  /** The ids among `ids` that name no category, in the order given. */
  async missingIds(ids: number[]): Promise<number[]> {
    const existing = new Set(await this.categories.existingIds([...new Set(ids)]));
    return ids.filter((id) => !existing.has(id));
  }

  /** The parent link of every category (for tree rules in other areas). */
  async links(): Promise<CategoryLink[]> {
    return (await this.categories.findAll()).map(({ id, parentId }) => ({ id, parentId }));
  }

  /** The name of each of `ids` that exists, in the request's language (labels, e.g. of search facets). */
  async names(ids: number[]): Promise<Map<number, string>> {
    const wanted = new Set(ids);
    const rows = (await this.localizedRows()).filter((row) => wanted.has(row.id));
    return new Map(rows.map((row) => [row.id, row.name]));
  }

  /** Every category, texts in the request's language falling back to the default language. */
  private async localizedRows(): Promise<LocalizedCategory[]> {
    const rows = await this.categories.findAll();
    const language = this.languages.readLanguage();
    const texts = this.languages.isDefault(language)
      ? new Map<number, Map<string, string>>()
      : await this.categories.textsIn(
          language,
          rows.map((row) => row.id),
        );
    return rows.map((row) => {
      const translated = texts.get(row.id);
      return {
        id: row.id,
        parentId: row.parentId,
        name: translated?.get('name') ?? row.name,
        description: translated?.get('description') ?? row.description,
      };
    });
  }

  /** undefined: not given; null: top level; else the id named by a category URL (400 otherwise). */
  private parentIdOf(raw: string | null | undefined): number | null | undefined {
    if (raw === undefined) return undefined;
    if (raw === null || raw === '') return null;
    return this.urls.parseIdOrThrow(raw, 'categories', 'a category', 'parent');
  }
}

function checkMove(links: CategoryLink[], id: number, parentId: number | null | undefined): void {
  if (parentId === undefined || parentId === null) return;
  if (!links.some((link) => link.id === parentId)) throw missingParent(parentId);
  if (wouldCreateCycle(links, id, parentId)) {
    throw new InvalidInput('a category cannot be moved under itself or one of its descendants');
  }
}

function validName(raw: string | null | undefined): string {
  const name = raw?.trim() ?? '';
  if (name === '') throw new InvalidInput('you must supply a name for the category');
  if (name.length > MAX_NAME)
    throw new InvalidInput(`a category name must be at most ${MAX_NAME} characters`);
  return name;
}

/** Empty clears the description, like null. */
function validDescription(raw: string | null | undefined): string | null {
  if (raw === undefined || raw === null || raw === '') return null;
  if (raw.length > MAX_DESCRIPTION) {
    throw new InvalidInput(`a category description must be at most ${MAX_DESCRIPTION} characters`);
  }
  return raw;
}

function missingParent(id: number): InvalidInput {
  return new InvalidInput(`the parent category ${id} does not exist`);
}
