import { Injectable } from '@nestjs/common';
import { InvalidInput } from '@dam/errors';
import { DomainEvent, DomainEvents } from '@dam/events';
import { Paging, UrlService } from '@dam/http';
import { ActorUser } from '../actor/actor';
import { AccessLevelTree } from '../permissions/access-level-tree.port';
import { isPermission, PERMISSIONS } from '../permissions/permission';
import { GroupPermissionRow } from '../permissions/permission-tree';
import { AccessLevelPermissionsDto, GroupWriteDto } from './dto/group-write.dto';
import { GroupChanged, GroupsRepository, GroupView } from './groups.repository';
import {
  GroupCreated,
  GroupDeleted,
  groupChanges,
  GroupEventData,
  groupEventData,
  GroupUpdated,
} from './group-events';
import { requireAdmin } from '../actor/policy';
import { GroupNotFound } from './group-errors';

/** Rules for groups (DESIGN §5): only admins and the application user read or manage them. */
@Injectable()
export class GroupsService {
  constructor(
    private readonly groups: GroupsRepository,
    private readonly urls: UrlService,
    private readonly levels: AccessLevelTree,
    private readonly events: DomainEvents,
  ) {}

  async listIds(actor: ActorUser, paging?: Paging): Promise<{ ids: number[]; total: number }> {
    requireAdmin(actor, 'read or manage groups');
    return this.groups.listIds(paging && { offset: paging.offset, limit: paging.pageSize });
  }

  async get(actor: ActorUser, id: number): Promise<GroupView> {
    requireAdmin(actor, 'read or manage groups');
    const group = await this.groups.findById(id);
    if (group === null) throw new GroupNotFound(id);
    return group;
  }

  async create(actor: ActorUser, input: GroupWriteDto): Promise<GroupView> {
    requireAdmin(actor, 'read or manage groups');
    if (input.name === undefined) throw new InvalidInput('you must supply a name for the group');
    const name = validName(input.name);
    const permissions = await this.permissionRowsOrThrow(input.accessLevelPermissions ?? []);
    return this.groups.create(name, permissions, this.recorded(actor, GroupCreated));
  }

  /** Replaces the name and/or all permissions in one transaction; omitted fields stay as they are. */
  async update(actor: ActorUser, id: number, input: GroupWriteDto): Promise<GroupView> {
    requireAdmin(actor, 'read or manage groups');
    const name = input.name === undefined ? undefined : validName(input.name);
    const permissions =
      input.accessLevelPermissions === undefined
        ? undefined
        : await this.permissionRowsOrThrow(input.accessLevelPermissions ?? []);
    const group = await this.groups.update(id, name, permissions, this.recorded(actor, GroupUpdated));
    if (group === null) throw new GroupNotFound(id);
    return group;
  }

  async delete(actor: ActorUser, id: number): Promise<void> {
    requireAdmin(actor, 'read or manage groups');
    if (!(await this.groups.delete(id, this.recorded(actor, GroupDeleted)))) throw new GroupNotFound(id);
  }

  /** Records the event of a group write, with its changes, in the write's transaction. */
  private recorded(
    actor: ActorUser,
    Event: new (data: GroupEventData) => DomainEvent<GroupEventData>,
  ): GroupChanged {
    return async (manager, before, after) => {
      const id = after?.id ?? before?.id;
      if (id === undefined) return;
      const event = new Event(groupEventData(this.urls, id, actor.id)).withChanges(
        groupChanges(before, after),
      );
      await this.events.record(manager, event);
    };
  }

  /**
   * Rows for the permissions given per access level URL. An unknown permission name, a URL that is not
   * an access level URL, or one naming no access level is a 400 naming it. Repeats are merged.
   */
  private async permissionRowsOrThrow(entries: AccessLevelPermissionsDto[]): Promise<GroupPermissionRow[]> {
    const wanted = new Map<number, Set<string>>();
    const urlOf = new Map<number, string>();
    for (const entry of entries) {
      const levelId = this.urls.parseIdOrThrow(
        entry.accessLevelUrl,
        'access-levels',
        'an access level',
        'accessLevelUrl',
      );
      urlOf.set(levelId, entry.accessLevelUrl);
      const names = wanted.get(levelId) ?? new Set<string>();
      for (const name of entry.permissions) {
        if (!isPermission(name)) {
          throw new InvalidInput(
            `"${name.slice(0, 100)}" is not a permission (use one of ${PERMISSIONS.join(', ')})`,
          );
        }
        names.add(name);
      }
      wanted.set(levelId, names);
    }
    const existing = new Set((await this.levels.nodes()).map((level) => level.id));
    const missing = [...wanted.keys()].find((levelId) => !existing.has(levelId));
    if (missing !== undefined)
      throw new InvalidInput(`"${urlOf.get(missing) ?? missing}" names no access level`);
    const rows: GroupPermissionRow[] = [];
    for (const [accessLevelId, names] of [...wanted].sort(([a], [b]) => a - b)) {
      for (const permission of PERMISSIONS)
        if (names.has(permission)) rows.push({ accessLevelId, permission });
    }
    return rows;
  }
}

function validName(raw: string): string {
  const name = raw.trim();
  if (name === '') throw new InvalidInput('the name of a group cannot be blank');
  return name;
}
