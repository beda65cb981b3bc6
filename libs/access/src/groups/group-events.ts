import { ActorRef, actorRef, EventType, FieldChanges, fieldChanges } from '@dam/events';
import { UrlService } from '@dam/http';
import { GroupView } from './groups.repository';

/** The payload of every `group.*` event (docs/events.md). */
export interface GroupEventData extends ActorRef {
  groupId: number;
  groupUrl: string;
}

export function groupEventData(urls: UrlService, groupId: number, actorId: number): GroupEventData {
  return {
    groupId,
    groupUrl: urls.configured().rest('groups', groupId),
    ...actorRef(urls.configured(), actorId),
  };
}

export class GroupCreated extends EventType<GroupEventData>('group.created') {}

/** Its name or its permissions changed. */
export class GroupUpdated extends EventType<GroupEventData>('group.updated') {}

export class GroupDeleted extends EventType<GroupEventData>('group.deleted') {}

/** A group as the audit log compares it: its name, and its permissions (sorted) by access level id. */
function audited(group: GroupView | undefined) {
  if (group === undefined) return undefined;
  const permissions: Record<string, string[]> = {};
  for (const row of group.permissions) (permissions[row.accessLevelId] ??= []).push(row.permission);
  for (const names of Object.values(permissions)) names.sort();
  return { name: group.name, permissions };
}

/** `{name, permissions}` before and after (either undefined for a creation or deletion), where they differ. */
export function groupChanges(before: GroupView | undefined, after: GroupView | undefined): FieldChanges {
  return fieldChanges(audited(before), audited(after), ['name', 'permissions']);
}
