import { Injectable } from '@nestjs/common';
import { ActorUser, requireAdmin } from '@dam/access';
import { InvalidInput, UnknownResource } from '@dam/errors';
import { parseOptionalId, UrlService } from '@dam/http';

import { AttributeType } from '../attribute-types';
import { AttributesRepository } from '../attributes/attributes.repository';
import { AttributeEntity } from '../entities/attribute.entity';
import { ListAttributeValueEntity } from '../entities/list-attribute-value.entity';
import { CreateListValueDto, CreateListValueForAnyAttributeDto } from './dto/list-value.dto';
import { ListValuesRepository } from './list-values.repository';
import { AttributeNotFound, DuplicateListValue } from '../attribute-errors';

export const BLANK_LIST_VALUE = 'the list value cannot be blank';

/** Rules for the values of list attributes (spec 4.7): anyone signed in reads them, admins add them. */
@Injectable()
export class ListValuesService {
  constructor(
    private readonly values: ListValuesRepository,
    private readonly attributes: AttributesRepository,
    private readonly urls: UrlService,
  ) {}

  async listOfAttribute(attributeId: number): Promise<ListAttributeValueEntity[]> {
    const attribute = await this.listAttributeOrThrow(attributeId);
    return this.values.find(attribute.id);
  }

  /** Every value, or with `attributeId` those of one attribute. */
  async list(rawAttributeId: unknown): Promise<ListAttributeValueEntity[]> {
    return this.values.find(parseOptionalId(rawAttributeId, 'attributeId'));
  }

  async get(id: number): Promise<ListAttributeValueEntity> {
    const value = await this.values.findById(id);
    if (value === null) throw new UnknownResource(`list attribute value ${id} does not exist`);
    return value;
  }

  async addToAttribute(
    actor: ActorUser,
    attributeId: number,
    request: CreateListValueDto,
  ): Promise<ListAttributeValueEntity> {
    requireAdmin(actor, 'manage list attribute values');
    const attribute = await this.attributes.findById(attributeId);
    if (attribute === null) throw new AttributeNotFound(attributeId);
    return this.add(attribute, request);
  }

  /** The attribute is named in the body, so an unknown one is the client's mistake: 400. */
  async addToNamedAttribute(
    actor: ActorUser,
    request: CreateListValueForAnyAttributeDto,
  ): Promise<ListAttributeValueEntity> {
    requireAdmin(actor, 'manage list attribute values');
    const attributeId = this.attributeIdOf(request);
    const attribute = await this.attributes.findById(attributeId);
    if (attribute === null) throw new InvalidInput(`attribute ${attributeId} does not exist`);
    return this.add(attribute, request);
  }

  async delete(actor: ActorUser, id: number): Promise<void> {
    requireAdmin(actor, 'manage list attribute values');
    await this.get(id);
    await this.values.delete(id);
  }

  private async add(
    attribute: AttributeEntity,
    request: CreateListValueDto,
  ): Promise<ListAttributeValueEntity> {
    const value = validValue(request.value);
    const additionalValue = validAdditionalValue(request.additionalValue);
    requireListType(attribute);
    if (await this.values.existsInAttribute(attribute.id, value)) throw new DuplicateListValue(value);
    return this.values.insert(
      Object.assign(new ListAttributeValueEntity(), {
        attributeId: attribute.id,
        value,
        additionalValue,
        createdAt: new Date(),
      }),
    );
  }

  private async listAttributeOrThrow(attributeId: number): Promise<AttributeEntity> {
    const attribute = await this.attributes.findById(attributeId);
    if (attribute === null) throw new AttributeNotFound(attributeId);
    requireListType(attribute);
    return attribute;
  }

  private attributeIdOf(request: CreateListValueForAnyAttributeDto): number {
    if (request.attributeUrl !== undefined && request.attributeUrl !== null) {
      return this.urls.parseIdOrThrow(request.attributeUrl, 'attributes', 'an attribute', 'attributeUrl');
    }
    const id = parseOptionalId(request.attributeId, 'attributeId');
    if (id === undefined)
      throw new InvalidInput('you must name the attribute of the list value (attributeUrl or attributeId)');
    return id;
  }
}

function requireListType(attribute: AttributeEntity): void {
  if (attribute.typeId !== AttributeType.List) {
    throw new InvalidInput(`attribute ${attribute.id} is not a list attribute, so it has no list values`);
  }
}

function validValue(raw: string | null | undefined): string {
  if (raw === undefined || raw === null || raw.trim() === '') throw new InvalidInput(BLANK_LIST_VALUE);
  if (raw.trim().length > 255) throw new InvalidInput('the list value can be at most 255 characters');
  return raw.trim();
}

function validAdditionalValue(raw: string | null | undefined): string | null {
  if (raw === undefined || raw === null) return null;
  if (raw.length > 255) throw new InvalidInput('additionalValue can be at most 255 characters');
  return raw;
}
