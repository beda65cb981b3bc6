import { ActorRef, actorRef, EventType, FieldChanges, fieldChanges } from '@dam/events';
import { UrlService } from '@dam/http';

/** The payload of every `attribute.*` event (docs/events.md). */
export interface AttributeEventData extends ActorRef {
  attributeId: number;
  attributeUrl: string;
}

export function attributeEventData(
  urls: UrlService,
  attributeId: number,
  actorId: number,
): AttributeEventData {
  return {
    attributeId,
    attributeUrl: urls.configured().rest('attributes', attributeId),
    ...actorRef(urls.configured(), actorId),
  };
}

export class AttributeCreated extends EventType<AttributeEventData>('attribute.created') {}

/**
 * Its label (in any language), type, keyword searchability or display order changed. A change of type
 * (`changes.typeId`) has the assets area reindex the attribute's values (their tokens and sort copies
 * depend on it).
 */
export class AttributeUpdated extends EventType<AttributeEventData>('attribute.updated') {}

/** Its values, list values, keywords and mappings went with it. */
export class AttributeDeleted extends EventType<AttributeEventData>('attribute.deleted') {}

/** The fields of an attribute the audit log compares (the label in the default language). */
export interface AuditedAttribute {
  label?: string;
  typeId?: number;
  isKeywordSearchable?: boolean;
  displayOrder?: number;
}

/** `{field: {before, after}}` of an attribute write (`before` undefined for a creation, `after` for a deletion). */
export function attributeChanges(
  before: AuditedAttribute | undefined,
  after: AuditedAttribute | undefined,
): FieldChanges {
  return fieldChanges(before, after, ['label', 'typeId', 'isKeywordSearchable', 'displayOrder']);
}
