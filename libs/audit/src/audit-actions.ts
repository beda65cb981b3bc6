import { DomainEvent } from '@dam/events';

/** What an audit entry records of an event: its action and its target (null: none, e.g. an unknown user). */
export interface AuditedEvent {
  action: string;
  targetType: string;
  targetId: number | null;
  actorUserId: number | null;
}

/** How an event type is kept: the target's path under /rest (`admin/webhooks`), its id key, a renamed action. */
interface Audited {
  targetType: string;
  idKey: string;
  action?: string;
}

const ASSET: Audited = { targetType: 'assets', idKey: 'assetId' };
const USER: Audited = { targetType: 'users', idKey: 'userId' };
const GROUP: Audited = { targetType: 'groups', idKey: 'groupId' };
const CATEGORY: Audited = { targetType: 'categories', idKey: 'categoryId' };
const ACCESS_LEVEL: Audited = { targetType: 'access-levels', idKey: 'accessLevelId' };
const WEBHOOK: Audited = { targetType: 'admin/webhooks', idKey: 'webhookId' };
const SHARE: Audited = { targetType: 'shares', idKey: 'shareId' };
const ATTRIBUTE: Audited = { targetType: 'attributes', idKey: 'attributeId' };

/**
 * THE list of audited actions (DESIGN §12 "Audit"): every domain event named here gets an entry, any
 * other none. An area that audits a new action adds its event type here; nothing else in this lib changes.
 */
export const AUDITED_EVENTS: Readonly<Record<string, Audited>> = {
  'asset.created': ASSET,
  'asset.updated': ASSET,
  'asset.submitted': ASSET,
  'asset.approved': ASSET,
  'asset.rejected': ASSET,
  'asset.archived': ASSET,
  'asset.deleted': ASSET,
  'asset.trashed': ASSET,
  'asset.restored': ASSET,
  'asset.purged': ASSET,
  'asset.content-replaced': { ...ASSET, action: 'asset.content.replaced' },
  'asset.version.restored': ASSET,
  'asset.checked-out': ASSET,
  'asset.checked-in': ASSET,
  'asset.downloaded': ASSET,
  'login.failed': USER,
  'client.created': USER,
  'client.secret-rotated': USER,
  'user.created': USER,
  'user.updated': USER,
  'user.deleted': USER,
  'group.created': GROUP,
  'group.updated': GROUP,
  'group.deleted': GROUP,
  'category.created': CATEGORY,
  'category.updated': CATEGORY,
  'category.deleted': CATEGORY,
  'access-level.created': ACCESS_LEVEL,
  'access-level.updated': ACCESS_LEVEL,
  'access-level.deleted': ACCESS_LEVEL,
  'attribute.created': ATTRIBUTE,
  'attribute.updated': ATTRIBUTE,
  'attribute.deleted': ATTRIBUTE,
  'webhook.created': WEBHOOK,
  'webhook.updated': WEBHOOK,
  'webhook.deleted': WEBHOOK,
  'share.created': SHARE,
  'share.revoked': SHARE,
  'share.downloaded': SHARE,
};

/**
 * The audit entry of an event, or undefined for an event the log does not keep. Only ids are read from
 * the payload (which holds ids and URLs, never a secret); `changes` comes from the owner (withChanges).
 * A target id that is null (a failed login under an unknown username) leaves the entry without target.
 */
export function auditedEvent(event: DomainEvent): AuditedEvent | undefined {
  const audited = AUDITED_EVENTS[event.type];
  if (audited === undefined) return undefined;
  const data = event.data as Record<string, unknown>;
  const targetId = data[audited.idKey];
  if (typeof targetId !== 'number' && targetId !== null) return undefined;
  const actor = data.actorId;
  return {
    action: audited.action ?? event.type,
    targetType: audited.targetType,
    targetId,
    actorUserId: typeof actor === 'number' ? actor : null,
  };
}
