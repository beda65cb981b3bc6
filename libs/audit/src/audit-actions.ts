import { DomainEvent } from '@dam/events';

/** What an audit entry records of an event: its action and its target. */
export interface AuditedEvent {
  action: string;
  targetType: string;
  targetId: number;
  actorUserId: number | null;
}

/** The audited events by type: the action they are recorded as, and the target collection and id key. */
const AUDITED: Record<string, { action?: string; targetType: string; idKey: string }> = {
  'asset.created': { targetType: 'assets', idKey: 'assetId' },
  'asset.updated': { targetType: 'assets', idKey: 'assetId' },
  'asset.submitted': { targetType: 'assets', idKey: 'assetId' },
  'asset.approved': { targetType: 'assets', idKey: 'assetId' },
  'asset.rejected': { targetType: 'assets', idKey: 'assetId' },
  'asset.archived': { targetType: 'assets', idKey: 'assetId' },
  'asset.deleted': { targetType: 'assets', idKey: 'assetId' },
  'asset.trashed': { targetType: 'assets', idKey: 'assetId' },
  'asset.restored': { targetType: 'assets', idKey: 'assetId' },
  'asset.purged': { targetType: 'assets', idKey: 'assetId' },
  'asset.content-replaced': { action: 'asset.content.replaced', targetType: 'assets', idKey: 'assetId' },
  'asset.version.restored': { targetType: 'assets', idKey: 'assetId' },
  'asset.checked-out': { targetType: 'assets', idKey: 'assetId' },
  'asset.checked-in': { targetType: 'assets', idKey: 'assetId' },
  'user.created': { targetType: 'users', idKey: 'userId' },
  'user.updated': { targetType: 'users', idKey: 'userId' },
  'user.deleted': { targetType: 'users', idKey: 'userId' },
  'category.created': { targetType: 'categories', idKey: 'categoryId' },
  'category.updated': { targetType: 'categories', idKey: 'categoryId' },
  'category.deleted': { targetType: 'categories', idKey: 'categoryId' },
  'access-level.created': { targetType: 'access-levels', idKey: 'accessLevelId' },
  'access-level.updated': { targetType: 'access-levels', idKey: 'accessLevelId' },
  'access-level.deleted': { targetType: 'access-levels', idKey: 'accessLevelId' },
  'share.created': { targetType: 'shares', idKey: 'shareId' },
  'share.revoked': { targetType: 'shares', idKey: 'shareId' },
  'share.downloaded': { targetType: 'shares', idKey: 'shareId' },
};

/**
 * The audit entry of an event, or undefined for an event the log does not keep. Only ids are read from
 * the payload (which holds ids and URLs, never a secret); `changes` comes from the owner (withChanges).
 */
export function auditedEvent(event: DomainEvent): AuditedEvent | undefined {
  const audited = AUDITED[event.type];
  if (audited === undefined) return undefined;
  const data = event.data as Record<string, unknown>;
  const targetId = data[audited.idKey];
  if (typeof targetId !== 'number') return undefined;
  const actor = data.actorId;
  return {
    action: audited.action ?? event.type,
    targetType: audited.targetType,
    targetId,
    actorUserId: typeof actor === 'number' ? actor : null,
  };
}
