import { Injectable } from '@nestjs/common';
import { ActorUser, requireAdmin } from '@dam/access';
import { InvalidInput, UnknownResource } from '@dam/errors';
import { UrlService } from '@dam/http';
import { LanguageService } from '@dam/i18n';
import { AttributeDefinition } from '../attribute-types';
import { AttributesCatalog } from '../attributes-catalog';
import { AttributesRepository } from '../attributes/attributes.repository';
import { DisplayAttributeGroupEntity } from '../entities/display-attribute-group.entity';
import { requiredText } from '../rules';
import { DisplayGroupRow, DisplayGroupsRepository } from './display-groups.repository';
import { DisplayGroupDto } from './dto/display-group.dto';

/** A group with its attributes, labelled in the reader's language. */
export interface DisplayGroupView {
  group: DisplayAttributeGroupEntity;
  attributes: AttributeDefinition[];
}

const WHAT = 'display attribute groups';

/** Rules for display attribute groups: anyone signed in reads them, admins manage them. */
@Injectable()
export class DisplayGroupsService {
  constructor(
    private readonly groups: DisplayGroupsRepository,
    private readonly attributes: AttributesRepository,
    private readonly catalog: AttributesCatalog,
    private readonly languages: LanguageService,
    private readonly urls: UrlService,
  ) {}

  async list(): Promise<DisplayGroupView[]> {
    return this.views(await this.groups.findAll());
  }

  async get(id: number): Promise<DisplayGroupView> {
    return (await this.views([await this.getRowOrThrow(id)]))[0];
  }

  async create(actor: ActorUser, request: DisplayGroupDto): Promise<DisplayGroupView> {
    requireAdmin(actor, `manage ${WHAT}`);
    const now = new Date();
    const group = Object.assign(new DisplayAttributeGroupEntity(), {
      name: validName(request.name),
      displayOrder: request.displayOrder ?? 0,
      createdAt: now,
      updatedAt: now,
    });
    const attributeIds = (await this.attributeIdsOf(request.attributes)) ?? [];
    return this.get((await this.groups.save(group, attributeIds)).id);
  }

  async update(actor: ActorUser, id: number, changes: DisplayGroupDto): Promise<DisplayGroupView> {
    requireAdmin(actor, `manage ${WHAT}`);
    const { group } = await this.getRowOrThrow(id);
    if (changes.name !== undefined) group.name = validName(changes.name);
    group.displayOrder = changes.displayOrder ?? group.displayOrder;
    group.updatedAt = new Date();
    await this.groups.save(group, await this.attributeIdsOf(changes.attributes));
    return this.get(id);
  }

  async delete(actor: ActorUser, id: number): Promise<void> {
    requireAdmin(actor, `manage ${WHAT}`);
    await this.getRowOrThrow(id);
    await this.groups.delete(id);
  }

  private async getRowOrThrow(id: number): Promise<DisplayGroupRow> {
    const row = await this.groups.findById(id);
    if (row === undefined) throw new UnknownResource(`display attribute group ${id} does not exist`);
    return row;
  }

  /** Labels every group's attributes with one lookup. */
  private async views(rows: DisplayGroupRow[]): Promise<DisplayGroupView[]> {
    const definitions = await this.catalog.byIds(
      rows.flatMap((row) => row.attributeIds),
      this.languages.readLanguage(),
    );
    const byId = new Map(definitions.map((definition) => [definition.id, definition]));
    return rows.map(({ group, attributeIds }) => ({
      group,
      attributes: attributeIds.flatMap((attributeId) => byId.get(attributeId) ?? []),
    }));
  }

  /** undefined leaves the attributes as they are; each item is a URL, or an object with `url` or `id`. */
  private async attributeIdsOf(raw: unknown[] | null | undefined): Promise<number[] | undefined> {
    if (raw === undefined) return undefined;
    if (raw === null) return [];
    const ids = [...new Set(raw.map((item) => this.attributeIdOf(item)))];
    const found = new Set((await this.attributes.findByIds(ids)).map((attribute) => attribute.id));
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length > 0) throw new InvalidInput(`attribute ${missing.join(', ')} does not exist`);
    return ids;
  }

  private attributeIdOf(item: unknown): number {
    if (typeof item === 'object' && item !== null) {
      const { id, url } = item as { id?: unknown; url?: unknown };
      if (typeof id === 'number' && Number.isSafeInteger(id) && id > 0) return id;
      return this.urls.parseIdOrThrow(url, 'attributes', 'an attribute', 'attributes');
    }
    return this.urls.parseIdOrThrow(item, 'attributes', 'an attribute', 'attributes');
  }
}

function validName(raw: unknown): string {
  return requiredText(raw, 'you must supply a name for the display attribute group');
}
