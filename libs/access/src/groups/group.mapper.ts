import { Injectable } from '@nestjs/common';
import { UrlService, xmlMapping } from '@dam/http';
import { Permission, PERMISSIONS } from '../permissions/permission';
import { GroupView } from './groups.repository';

/** DESIGN §5 (a contract). */
export interface GroupRepresentation {
  url: string;
  id: number;
  name: string;
  accessLevelPermissions: Array<{ accessLevelUrl: string; permissions: Permission[] }>;
}

/** XML (DESIGN §3): `<group>`, `<accessLevelPermissions><accessLevelPermission>`, `<permissions><permission>`. */
export const GROUP_XML = xmlMapping('group', {
  accessLevelPermissions: 'accessLevelPermission',
  permissions: 'permission',
});

@Injectable()
export class GroupMapper {
  constructor(private readonly urls: UrlService) {}

  url(id: number): string {
    return this.urls.rest('groups', id);
  }

  /** Permissions grouped per access level: levels in id order, names in the order of the contract. */
  toRepresentation(group: GroupView): GroupRepresentation {
    const byLevel = new Map<number, Permission[]>();
    const rank = (permission: Permission) => PERMISSIONS.indexOf(permission);
    const rows = [...group.permissions].sort(
      (a, b) => a.accessLevelId - b.accessLevelId || rank(a.permission) - rank(b.permission),
    );
    for (const row of rows) {
      byLevel.set(row.accessLevelId, [...(byLevel.get(row.accessLevelId) ?? []), row.permission]);
    }
    return {
      url: this.url(group.id),
      id: group.id,
      name: group.name,
      accessLevelPermissions: [...byLevel].map(([levelId, permissions]) => ({
        accessLevelUrl: this.urls.rest('access-levels', levelId),
        permissions,
      })),
    };
  }
}
