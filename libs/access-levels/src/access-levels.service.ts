import { Injectable } from '@nestjs/common';
import { ActorUser, requireAdmin } from '@dam/access';
import { deepestFirst, findCycle, TreeLink as LevelLink } from '@dam/core';
import { InvalidInput } from '@dam/errors';
import { DomainEvents } from '@dam/events';
import { Paging, UrlService } from '@dam/http';
import { LanguageService } from '@dam/i18n';
import { levelChanges, planChange } from './access-level-changes';
import { AccessLevelNotAssignable, isAssignable } from './access-level-rules';
import { AccessLevelReader, AccessLevelView, CountScope } from './access-level.reader';
import { AccessLevelsRepository, LevelUpdate } from './access-levels.repository';
import { AccessLevelWriteDto } from './dto/access-level-write.dto';
import {
  AccessLevelCreated,
  AccessLevelDeleted,
  accessLevelEventData,
  AccessLevelUpdated,
} from './events/access-level-events';
import { AccessLevelEntity } from './entities/access-level.entity';
import { AccessLevelImagesService } from './images/access-level-images.service';
import { LevelAssetCounts } from './ports/level-asset-counts.port';
import { AccessLevelNotFound } from './access-level-errors';

/** One level to update and how the client named it (by id in the path, or by URL in a bulk PUT). */
export interface LevelWrite {
  id: number;
  input: AccessLevelWriteDto;
  namedBy?: string;
}

/**
 * Rules for access levels (spec 4.1, DESIGN §5-6): anyone reads the levels where they hold `view`
 * (others are 404, as if absent); only admins and the application user write.
 */
@Injectable()
export class AccessLevelsService {
  constructor(
    private readonly levels: AccessLevelsRepository,
    private readonly reader: AccessLevelReader,
    private readonly languages: LanguageService,
    private readonly urls: UrlService,
    private readonly images: AccessLevelImagesService,
    private readonly assetCounts: LevelAssetCounts,
    private readonly events: DomainEvents,
  ) {}

  async listIds(actor: ActorUser, paging?: Paging): Promise<{ ids: number[]; total: number }> {
    const ids = await this.reader.visibleIds(actor);
    const page = paging === undefined ? ids : ids.slice(paging.offset, paging.offset + paging.pageSize);
    return { ids: page, total: ids.length };
  }

  async get(actor: ActorUser, id: number, counts: CountScope): Promise<AccessLevelView> {
    const view = await this.reader.one(actor, id, counts);
    if (view === undefined) throw new AccessLevelNotFound(id);
    return view;
  }

  /**
   * Spec 4.1 item 9: the visible levels with their descendants, or, with `parentId`, that level (404 when
   * absent or not visible) with the visible levels below it.
   */
  async search(
    actor: ActorUser,
    parentId: number | undefined,
    counts: CountScope,
  ): Promise<AccessLevelView[]> {
    const forest = await this.reader.forest(actor, { rootId: parentId, counts });
    if (parentId !== undefined && forest[0]?.level.id !== parentId) throw new AccessLevelNotFound(parentId);
    return forest;
  }

  async create(actor: ActorUser, input: AccessLevelWriteDto): Promise<AccessLevelView> {
    requireAdmin(actor, 'change access levels');
    const parentId =
      input.parent === undefined || input.parent === null ? null : await this.parentIdOrThrow(input.parent);
    const { columns, translation } = planChange(input, undefined, parentId, this.writeLanguage());
    const now = new Date();
    const level = Object.assign(new AccessLevelEntity(), columns, {
      isStatic: false,
      createdAt: now,
      updatedAt: now,
    });
    const created = levelChanges(undefined, columns);
    const saved = await this.levels.create(level, translation, (manager, id) =>
      this.events.record(
        manager,
        new AccessLevelCreated(accessLevelEventData(this.urls, id, actor.id)).withChanges(created),
      ),
    );
    return this.get(actor, saved.id, 'all');
  }

  /**
   * Updates one or several levels together (one transaction). Only writable fields change; moving a
   * level under itself or a level below it, also through several moves at once, is a 400.
   */
  async update(actor: ActorUser, writes: LevelWrite[]): Promise<AccessLevelView[]> {
    requireAdmin(actor, 'change access levels');
    const ids = writes.map((write) => write.id);
    if (new Set(ids).size !== ids.length) throw new InvalidInput('each access level may appear only once');
    const current = new Map((await this.levels.findByIds(ids)).map((level) => [level.id, level]));
    const language = this.writeLanguage();
    const updates: LevelUpdate[] = [];
    const moves = new Map<number, number | null>();
    for (const write of writes) {
      const level = current.get(write.id);
      if (level === undefined) throw this.unknown(write);
      const { parent } = write.input;
      const parentId =
        parent === undefined ? level.parentId : parent === null ? null : await this.parentIdOrThrow(parent);
      if (parentId !== level.parentId) moves.set(level.id, parentId);
      updates.push({ id: level.id, ...planChange(write.input, level, parentId, language) });
    }
    await this.levels.update(
      updates,
      (links) => this.checkTreeOrThrow(links, writes, moves),
      (manager, changed) =>
        this.events.record(
          manager,
          ...changed.map((id) =>
            new AccessLevelUpdated(accessLevelEventData(this.urls, id, actor.id)).withChanges(
              levelChanges(current.get(id), updates.find((update) => update.id === id)?.columns ?? {}),
            ),
          ),
        ),
    );
    return Promise.all(ids.map((id) => this.get(actor, id, 'all')));
  }

  /**
   * Deletes the levels together. A static level, a level holding assets, or one with a sub-access level
   * that is not deleted along with it, is a 400.
   */
  async delete(actor: ActorUser, ids: number[]): Promise<void> {
    requireAdmin(actor, 'change access levels');
    const all = await this.levels.findAll();
    const doomed = new Set(ids);
    const chosen = [...doomed].map((id) => {
      const level = all.find((candidate) => candidate.id === id);
      if (level === undefined) throw new AccessLevelNotFound(id);
      return level;
    });
    for (const level of chosen) {
      if (level.isStatic) throw new InvalidInput(`access level ${level.id} is static and cannot be deleted`);
      if (all.some((other) => other.parentId === level.id && !doomed.has(other.id))) {
        throw new InvalidInput(`access level ${level.id} has sub-access levels; delete or move them first`);
      }
    }
    const [holding] = [...(await this.assetCounts.levelsWithAssets([...doomed]))];
    if (holding !== undefined)
      throw new InvalidInput(`access level ${holding} contains assets and cannot be deleted`);
    await this.levels.delete(
      deepestFirst(chosen, all).map((level) => level.id),
      (manager, deleted) =>
        this.events.record(
          manager,
          ...deleted.map((id) =>
            new AccessLevelDeleted(accessLevelEventData(this.urls, id, actor.id)).withChanges(
              levelChanges(
                chosen.find((level) => level.id === id),
                undefined,
              ),
            ),
          ),
        ),
    );
    await this.images.discard(chosen.flatMap((level) => (level.imageKey === null ? [] : [level.imageKey])));
  }

  /**
   * The rule for giving levels to an asset (DESIGN §6, `isAssignable`): every id must name a level, and
   * a level with sub-access levels is assignable only when `isAlwaysAssignable`. Otherwise a 400 naming
   * the level.
   */
  async requireAssignable(ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    const all = await this.levels.findAll();
    const byId = new Map(all.map((level) => [level.id, level]));
    const parents = new Set(all.map((level) => level.parentId));
    for (const id of ids) {
      const level = byId.get(id);
      if (level === undefined) throw new InvalidInput(`access level ${id} does not exist`);
      if (!isAssignable({ hasChildren: parents.has(id), isAlwaysAssignable: level.isAlwaysAssignable }))
        throw new AccessLevelNotAssignable(id);
    }
  }

  /** The parent link of every level (for tree rules in other areas). */
  async links(): Promise<LevelLink[]> {
    return (await this.levels.findAll()).map(({ id, parentId }) => ({ id, parentId }));
  }

  /** The name of each of `ids` that exists, in the request's language (labels, e.g. of search facets). */
  async names(ids: number[]): Promise<Map<number, string>> {
    const wanted = new Set(ids);
    const rows = (await this.levels.findAll()).filter((row) => wanted.has(row.id));
    const language = this.languages.readLanguage();
    const texts = this.languages.isDefault(language)
      ? undefined
      : await this.levels.textsIn(
          language,
          rows.map((row) => row.id),
        );
    return new Map(rows.map((row) => [row.id, texts?.get(row.id)?.get('name') ?? row.name]));
  }

  private checkTreeOrThrow(
    links: LevelLink[],
    writes: LevelWrite[],
    moves: Map<number, number | null>,
  ): void {
    const present = new Set(links.map((link) => link.id));
    const gone = writes.find((write) => !present.has(write.id));
    if (gone !== undefined) throw this.unknown(gone);
    for (const parentId of moves.values()) {
      if (parentId !== null && !present.has(parentId))
        throw new InvalidInput(`access level ${parentId} does not exist`);
    }
    if (findCycle(links, moves) !== undefined) {
      throw new InvalidInput(
        'an access level cannot be moved under itself or one of its own sub-access levels',
      );
    }
  }

  private async parentIdOrThrow(parentUrl: string): Promise<number> {
    const id = this.urls.parseIdOrThrow(parentUrl, 'access-levels', 'an access level', 'parent');
    if ((await this.levels.findById(id)) === null)
      throw new InvalidInput(`"${parentUrl}" names no access level`);
    return id;
  }

  private writeLanguage(): { code: string; isDefault: boolean } {
    const code = this.languages.writeLanguage();
    return { code, isDefault: this.languages.isDefault(code) };
  }

  /** In a bulk PUT the level is named by a URL in the body: a bad one is the client's mistake (400). */
  private unknown(write: LevelWrite): Error {
    return write.namedBy === undefined
      ? new AccessLevelNotFound(write.id)
      : new InvalidInput(`"${write.namedBy}" names no access level`);
  }
}
