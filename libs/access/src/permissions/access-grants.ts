import { Permission } from './permission';

/**
 * What one actor may do, per access level, after inheritance. Answers every "may A do P on levels L"
 * question in memory; build it once per request with PermissionsService.grantsFor().
 */
export class AccessGrants {
  private constructor(
    /** Admins and the application user hold every permission everywhere. */
    readonly all: boolean,
    private readonly byLevel: ReadonlyMap<number, ReadonlySet<Permission>>,
    private readonly knownLevels: ReadonlySet<number>,
  ) {}

  static everything(knownLevels: Iterable<number> = []): AccessGrants {
    return new AccessGrants(true, new Map(), new Set(knownLevels));
  }

  static of(byLevel: Map<number, Set<Permission>>, knownLevels: Iterable<number>): AccessGrants {
    return new AccessGrants(false, byLevel, new Set(knownLevels));
  }

  has(levelId: number, permission: Permission): boolean {
    if (this.all) return true;
    return this.byLevel.get(levelId)?.has(permission) ?? false;
  }

  /** True when the actor holds `permission` on at least one of the levels (view, download). */
  onAny(levelIds: readonly number[], permission: Permission): boolean {
    return levelIds.some((id) => this.has(id, permission));
  }

  /** True when the actor holds `permission` on every level, and there is at least one (edit, delete, approve). */
  onEvery(levelIds: readonly number[], permission: Permission): boolean {
    return levelIds.length > 0 && levelIds.every((id) => this.has(id, permission));
  }

  /** Ids of the levels where the actor holds `permission` (all known levels for privileged actors). */
  levelsWith(permission: Permission): number[] {
    if (this.all) return [...this.knownLevels];
    const ids: number[] = [];
    for (const [id, permissions] of this.byLevel) if (permissions.has(permission)) ids.push(id);
    return ids.sort((a, b) => a - b);
  }

  /** Every permission held on one level. */
  on(levelId: number): Permission[] {
    if (this.all) return [];
    return [...(this.byLevel.get(levelId) ?? [])];
  }
}
