import { Injectable } from '@nestjs/common';
import { AccessGrants, ActorUser } from '@dam/access';
import { AttributeDefinition, AttributesCatalog, AttributeType } from '@dam/attributes';
import { InvalidInput } from '@dam/errors';
import { LanguageService } from '@dam/i18n';
import { AssetChanges, sameIds, ValueChange } from './asset-changes';
import { AssetReferences } from './asset-references.service';
import { StoredState } from './queries/asset-states.repository';
import { isTranslatable, parseIdList, parseValue } from './attribute-values';
import { UpdateAssetRequest } from './dto/update-asset.request';

/**
 * Turns a PUT body into the validated changes it makes, leaving out what would not change, so a
 * GET-modify-PUT round trip writes only what the client modified. Read-only attributes are ignored.
 */
@Injectable()
export class AssetChangesBuilder {
  constructor(
    private readonly catalog: AttributesCatalog,
    private readonly references: AssetReferences,
    private readonly languages: LanguageService,
  ) {}

  /** `state` must hold the values stored under '' and under `writeKey`. */
  async build(
    actor: ActorUser,
    grants: AccessGrants,
    state: StoredState,
    request: UpdateAssetRequest,
    writeKey: string,
  ): Promise<AssetChanges> {
    const changes: AssetChanges = { values: [] };
    const definitions = await this.catalog.all(this.languages.readLanguage());
    for (const [attributeId, raw] of request.attributes) {
      const attribute = definitions.find((definition) => definition.id === attributeId);
      if (attribute === undefined) throw new InvalidInput(`attribute ${attributeId} does not exist`);
      if (attribute.isReadOnly) continue;
      if (attribute.typeId === AttributeType.AccessLevels) {
        const ids = idsOrThrow(attribute, raw, 'access level ids');
        await this.references.accessLevelsOrThrow(ids);
        if (!sameIds(ids, state.accessLevelIds)) changes.accessLevelIds = ids;
      } else if (attribute.typeId === AttributeType.Categories) {
        const ids = idsOrThrow(attribute, raw, 'category ids');
        await this.references.categoriesOrThrow(ids);
        if (!sameIds(ids, state.categoryIds)) changes.categoryIds = ids;
      } else {
        const change = await this.valueChange(state, attribute, raw, writeKey);
        if (change !== undefined) changes.values.push(change);
      }
    }
    if (request.parents !== undefined) {
      const parentIds = await this.references.parentIdsOrThrow(
        { actor, grants },
        state.asset.id,
        request.parents,
      );
      if (!sameIds(parentIds, state.parentIds)) changes.parentIds = parentIds;
    }
    return changes;
  }

  private async valueChange(
    state: StoredState,
    attribute: AttributeDefinition,
    raw: string,
    writeKey: string,
  ): Promise<ValueChange | undefined> {
    const language = isTranslatable(attribute.typeId) ? writeKey : '';
    const current = state.values.find((row) => row.attributeId === attribute.id && row.language === language);
    const value = raw.trim() === '' ? null : await this.storedOrThrow(attribute, raw);
    if (value === (current?.value ?? null)) return undefined;
    return { attributeId: attribute.id, language, value };
  }

  private async storedOrThrow(attribute: AttributeDefinition, raw: string): Promise<string> {
    const parsed = parseValue(attribute.typeId, raw);
    if (!parsed.ok) throw new InvalidInput(`the value of ${attribute.label} must be ${parsed.expected}`);
    if (attribute.typeId === AttributeType.List) {
      const values = await this.catalog.listValues(attribute.id);
      if (!values.some((listValue) => listValue.value === parsed.stored)) {
        throw new InvalidInput(`${shorten(parsed.stored)} is not one of the values of ${attribute.label}`);
      }
    }
    return parsed.stored;
  }
}

function idsOrThrow(attribute: AttributeDefinition, raw: string, what: string): number[] {
  const ids = parseIdList(raw);
  if (ids === undefined)
    throw new InvalidInput(`the value of ${attribute.label} must be comma-separated ${what}`);
  return ids;
}

function shorten(value: string): string {
  return value.length > 100 ? `"${value.slice(0, 100)}..."` : `"${value}"`;
}
