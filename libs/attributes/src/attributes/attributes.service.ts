import { Injectable } from '@nestjs/common';
import { ActorUser, requireAdmin } from '@dam/access';
import { InvalidInput } from '@dam/errors';
import { DomainEvents } from '@dam/events';
import { UrlService } from '@dam/http';
import { LanguageService } from '@dam/i18n';
import { requiredText } from '../rules';
import { AttributeDefinition, isAttributeTypeId, isSystemOnlyType } from '../attribute-types';
import { AttributeDefinitions } from './attribute-definitions';
import { AttributeEntity } from '../entities/attribute.entity';
import { AttributesRepository, TranslatedText } from './attributes.repository';
import { CreateAttributeDto, UpdateAttributeDto } from './dto/attribute.dto';
import { AttributeNotFound } from '../attribute-errors';
import {
  AttributeCreated,
  AttributeDeleted,
  attributeChanges,
  attributeEventData,
  AttributeUpdated,
  AuditedAttribute,
} from '../events/attribute-events';

const WHAT = 'attributes';

/**
 * Rules for attributes: anyone signed in reads them; admins add, change and remove custom ones. System
 * attributes keep their type and cannot be deleted. Labels are per language (Content-Language on write).
 */
@Injectable()
export class AttributesService {
  constructor(
    private readonly attributes: AttributesRepository,
    private readonly definitions: AttributeDefinitions,
    private readonly languages: LanguageService,
    private readonly urls: UrlService,
    private readonly events: DomainEvents,
  ) {}

  list(): Promise<AttributeDefinition[]> {
    return this.definitions.all(this.languages.readLanguage());
  }

  async get(id: number): Promise<AttributeDefinition> {
    const attribute = await this.definitions.byId(id, this.languages.readLanguage());
    if (attribute === undefined) throw new AttributeNotFound(id);
    return attribute;
  }

  async create(actor: ActorUser, request: CreateAttributeDto): Promise<AttributeDefinition> {
    requireAdmin(actor, `manage ${WHAT}`);
    const label = validLabel(request.label);
    const language = this.languages.writeLanguage();
    const now = new Date();
    const attribute = Object.assign(new AttributeEntity(), {
      label,
      staticName: null,
      typeId: validCustomType(request.typeId),
      isSystem: false,
      isReadOnly: false,
      isKeywordSearchable: request.isKeywordSearchable ?? false,
      displayOrder: request.displayOrder ?? (await this.attributes.nextDisplayOrder()),
      createdAt: now,
      updatedAt: now,
    });
    const saved = await this.attributes.save(attribute, this.translation(language, label), (manager, row) =>
      this.events.record(
        manager,
        new AttributeCreated(attributeEventData(this.urls, row.id, actor.id)).withChanges(
          attributeChanges(undefined, audited(row)),
        ),
      ),
    );
    return this.define(saved);
  }

  async update(actor: ActorUser, id: number, changes: UpdateAttributeDto): Promise<AttributeDefinition> {
    requireAdmin(actor, `manage ${WHAT}`);
    const attribute = await this.getEntityOrThrow(id);
    const before = audited(attribute);
    let translatedLabel: TranslatedText | undefined;
    if (changes.label !== undefined) {
      const label = validLabel(changes.label);
      const language = this.languages.writeLanguage();
      translatedLabel = this.translation(language, label);
      if (translatedLabel === undefined) attribute.label = label;
    }
    if (changes.typeId !== undefined && changes.typeId !== null && changes.typeId !== attribute.typeId) {
      if (attribute.isSystem)
        throw new InvalidInput(`the type of the system attribute ${attribute.label} cannot change`);
      attribute.typeId = validCustomType(changes.typeId);
    }
    if (typeof changes.isKeywordSearchable === 'boolean')
      attribute.isKeywordSearchable = changes.isKeywordSearchable;
    if (typeof changes.displayOrder === 'number') attribute.displayOrder = changes.displayOrder;
    attribute.updatedAt = new Date();
    // A label in another language is not the audited (default-language) label: named, without values.
    const changed = attributeChanges(before, audited(attribute));
    if (translatedLabel !== undefined) changed.label = { before: null, after: null };
    const saved = await this.attributes.save(attribute, translatedLabel, (manager) =>
      this.events.record(
        manager,
        new AttributeUpdated(attributeEventData(this.urls, id, actor.id)).withChanges(changed),
      ),
    );
    return this.define(saved);
  }

  async delete(actor: ActorUser, id: number): Promise<void> {
    requireAdmin(actor, `manage ${WHAT}`);
    const attribute = await this.getEntityOrThrow(id);
    if (attribute.isSystem)
      throw new InvalidInput(`the system attribute ${attribute.label} cannot be deleted`);
    await this.attributes.delete(id, (manager) =>
      this.events.record(
        manager,
        new AttributeDeleted(attributeEventData(this.urls, id, actor.id)).withChanges(
          attributeChanges(audited(attribute), undefined),
        ),
      ),
    );
  }

  async getEntityOrThrow(id: number): Promise<AttributeEntity> {
    const attribute = await this.attributes.findById(id);
    if (attribute === null) throw new AttributeNotFound(id);
    return attribute;
  }

  private async define(attribute: AttributeEntity): Promise<AttributeDefinition> {
    const [definition] = await this.definitions.define([attribute], this.languages.readLanguage());
    return definition;
  }

  /** Undefined for the default language, whose text lives on the attribute itself. */
  private translation(language: string, text: string): TranslatedText | undefined {
    return this.languages.isDefault(language) ? undefined : { language, text };
  }
}

function audited(attribute: AttributeEntity): AuditedAttribute {
  const { label, typeId, isKeywordSearchable, displayOrder } = attribute;
  return { label, typeId, isKeywordSearchable, displayOrder };
}

function validLabel(raw: unknown): string {
  return requiredText(raw, 'you must supply a label for the attribute');
}

function validCustomType(typeId: number): number {
  if (!isAttributeTypeId(typeId)) throw new InvalidInput(`typeId ${typeId} is not an attribute type`);
  if (isSystemOnlyType(typeId)) throw new InvalidInput(`typeId ${typeId} is reserved for system attributes`);
  return typeId;
}
