import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { TranslationEntity } from './translation.entity';

/** field -> text, for one entity in one language. */
export type FieldTexts = Map<string, string>;

/**
 * Per-language texts of translatable fields (access level and category names, attribute labels, ...).
 * Entity types are short stable names such as `access-level`; the default language is never stored here.
 * Platform owns the `translations` table; areas read and write their texts only through this service
 * (writes take the caller's EntityManager when they belong to the caller's transaction).
 */
@Injectable()
export class TranslationsService {
  constructor(
    @InjectRepository(TranslationEntity) private readonly translations: Repository<TranslationEntity>,
  ) {}

  /** Texts of many entities in one language, in one query. */
  async load(entityType: string, entityIds: number[], language: string): Promise<Map<number, FieldTexts>> {
    const result = new Map<number, FieldTexts>();
    if (entityIds.length === 0) return result;
    const rows = await this.translations.find({
      where: { entityType, language, ...(entityIds.length <= 1000 ? { entityId: In(entityIds) } : {}) },
    });
    const wanted = new Set(entityIds);
    for (const row of rows) {
      if (!wanted.has(row.entityId)) continue;
      const fields = result.get(row.entityId) ?? new Map<string, string>();
      fields.set(row.field, row.text);
      result.set(row.entityId, fields);
    }
    return result;
  }

  /** Writes (or, with null, removes) one field's text in one language. */
  async save(
    entityType: string,
    entityId: number,
    field: string,
    language: string,
    text: string | null,
    manager: EntityManager = this.translations.manager,
  ): Promise<void> {
    const repository = manager.getRepository(TranslationEntity);
    if (text === null) {
      await repository.delete({ entityType, entityId, field, language });
      return;
    }
    await repository.upsert({ entityType, entityId, field, language, text }, [
      'entityType',
      'entityId',
      'field',
      'language',
    ]);
  }

  /** Removes every translation of an entity (when the entity is deleted). */
  async deleteAll(
    entityType: string,
    entityId: number,
    manager: EntityManager = this.translations.manager,
  ): Promise<void> {
    await manager.getRepository(TranslationEntity).delete({ entityType, entityId });
  }
}
