import { Injectable } from '@nestjs/common';
import { ActorUser, requireAdmin } from '@dam/access';
import { InvalidInput, UnknownResource } from '@dam/errors';
import { UrlService } from '@dam/http';
import { LanguageService } from '@dam/i18n';
import { AttributeDefinition, EmbeddedDataTypes, MappingDirections } from '../attribute-types';
import { AttributeDefinitions } from '../attributes/attribute-definitions';
import { EmbeddedDataMappingEntity } from '../entities/embedded-data-mapping.entity';
import { requiredText } from '../rules';
import { DIRECTION_MESSAGE, EmbeddedDataMappingDto, TYPE_MESSAGE } from './dto/embedded-data-mapping.dto';
import { EmbeddedDataMappingsRepository } from './embedded-data-mappings.repository';

/** A mapping with its attribute, labelled in the reader's language. */
export interface EmbeddedDataMappingView {
  mapping: EmbeddedDataMappingEntity;
  attribute: AttributeDefinition | undefined;
}

const WHAT = 'embedded data mappings';

/** Rules for embedded-data mappings: anyone signed in reads them, admins manage them. */
@Injectable()
export class EmbeddedDataMappingsService {
  constructor(
    private readonly mappings: EmbeddedDataMappingsRepository,
    private readonly definitions: AttributeDefinitions,
    private readonly languages: LanguageService,
    private readonly urls: UrlService,
  ) {}

  async list(): Promise<EmbeddedDataMappingView[]> {
    return this.views(await this.mappings.findAll());
  }

  async get(id: number): Promise<EmbeddedDataMappingView> {
    return (await this.views([await this.getEntityOrThrow(id)]))[0];
  }

  async create(actor: ActorUser, request: EmbeddedDataMappingDto): Promise<EmbeddedDataMappingView> {
    requireAdmin(actor, `manage ${WHAT}`);
    const tagName = validTagName(request.tagName);
    const now = new Date();
    const mapping = Object.assign(new EmbeddedDataMappingEntity(), {
      type: validType(request.type),
      tagName,
      displayName:
        request.displayName === undefined || request.displayName === null
          ? tagName
          : validDisplayName(request.displayName),
      mappingDirection: validDirection(request.mappingDirection ?? MappingDirections[0]),
      attributeId: await this.attributeIdOf(request.attributeUrl),
      createdAt: now,
      updatedAt: now,
    });
    return this.get((await this.mappings.save(mapping)).id);
  }

  async update(
    actor: ActorUser,
    id: number,
    changes: EmbeddedDataMappingDto,
  ): Promise<EmbeddedDataMappingView> {
    requireAdmin(actor, `manage ${WHAT}`);
    const mapping = await this.getEntityOrThrow(id);
    if (changes.type !== undefined) mapping.type = validType(changes.type);
    if (changes.tagName !== undefined) mapping.tagName = validTagName(changes.tagName);
    if (changes.displayName !== undefined) mapping.displayName = validDisplayName(changes.displayName);
    if (changes.mappingDirection !== undefined)
      mapping.mappingDirection = validDirection(changes.mappingDirection);
    if (changes.attributeUrl !== undefined)
      mapping.attributeId = await this.attributeIdOf(changes.attributeUrl);
    mapping.updatedAt = new Date();
    await this.mappings.save(mapping);
    return this.get(id);
  }

  async delete(actor: ActorUser, id: number): Promise<void> {
    requireAdmin(actor, `manage ${WHAT}`);
    await this.getEntityOrThrow(id);
    await this.mappings.delete(id);
  }

  private async getEntityOrThrow(id: number): Promise<EmbeddedDataMappingEntity> {
    const mapping = await this.mappings.findById(id);
    if (mapping === null) throw new UnknownResource(`embedded data mapping ${id} does not exist`);
    return mapping;
  }

  private async views(mappings: EmbeddedDataMappingEntity[]): Promise<EmbeddedDataMappingView[]> {
    const attributes = await this.definitions.byIds(
      mappings.map((mapping) => mapping.attributeId),
      this.languages.readLanguage(),
    );
    const byId = new Map(attributes.map((attribute) => [attribute.id, attribute]));
    return mappings.map((mapping) => ({ mapping, attribute: byId.get(mapping.attributeId) }));
  }

  private async attributeIdOf(url: unknown): Promise<number> {
    if (url === undefined || url === null)
      throw new InvalidInput('you must supply the attributeUrl the tag maps to');
    const attributeId = this.urls.parseIdOrThrow(url, 'attributes', 'an attribute', 'attributeUrl');
    if ((await this.definitions.byId(attributeId, this.languages.defaultLanguage)) === undefined) {
      throw new InvalidInput(`attribute ${attributeId} does not exist`);
    }
    return attributeId;
  }
}

function validType(raw: string | null | undefined): string {
  const type = (raw ?? '').trim().toUpperCase();
  if (!(EmbeddedDataTypes as readonly string[]).includes(type)) throw new InvalidInput(TYPE_MESSAGE);
  return type;
}

function validDirection(raw: string | null): string {
  if (raw === null || !(MappingDirections as readonly string[]).includes(raw)) {
    throw new InvalidInput(DIRECTION_MESSAGE);
  }
  return raw;
}

function validTagName(raw: unknown): string {
  return requiredText(raw, 'you must supply the tagName of the embedded data');
}

function validDisplayName(raw: unknown): string {
  return requiredText(raw, 'displayName cannot be blank');
}
