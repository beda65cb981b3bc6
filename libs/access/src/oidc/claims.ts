import type { OidcSettings } from '@dam/core';

/** What a verified token says about its user: who they are, and, when it carries the groups claim, their groups. */
export interface ClaimedIdentity {
  username: string;
  emailAddress: string | null;
  forename: string | null;
  surname: string | null;
  /** The identity provider's groups, or undefined when the token does not carry the groups claim. */
  groups: readonly string[] | undefined;
}

/** A claim the service needs is missing or malformed: the token is refused with this reason. */
export class UnusableClaim extends Error {}

/** The longest text a user's fields hold (their columns are 255 characters). */
const MAX_TEXT = 255;

/**
 * The claim `name`: the payload's own key when it has one (URL-like names contain dots), else the
 * dotted path into nested objects (Keycloak's `realm_access.roles`).
 */
export function claimAt(payload: Record<string, unknown>, name: string): unknown {
  if (Object.hasOwn(payload, name)) return payload[name];
  let value: unknown = payload;
  for (const part of name.split('.')) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    if (!Object.hasOwn(value, part)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** The identity a verified token's claims describe, under DAM_OIDC_USERNAME_CLAIM and DAM_OIDC_GROUPS_CLAIM. */
export function identityOf(
  payload: Record<string, unknown>,
  settings: Pick<OidcSettings, 'usernameClaim' | 'groupsClaim'>,
): ClaimedIdentity {
  const username = claimAt(payload, settings.usernameClaim);
  if (typeof username !== 'string' || username.trim() === '') {
    throw new UnusableClaim(`the token has no ${settings.usernameClaim} claim naming its user`);
  }
  return {
    username,
    emailAddress: optionalText(payload.email),
    forename: optionalText(payload.given_name),
    surname: optionalText(payload.family_name),
    groups: groupsOf(claimAt(payload, settings.groupsClaim), settings.groupsClaim),
  };
}

function groupsOf(claim: unknown, name: string): string[] | undefined {
  if (claim === undefined) return undefined;
  if (typeof claim === 'string') return [claim];
  if (Array.isArray(claim) && claim.every((group) => typeof group === 'string')) return claim;
  // A claim we cannot read must not leave the user with groups the provider may have taken away.
  throw new UnusableClaim(`the token's ${name} claim is not a list of group names`);
}

function optionalText(value: unknown): string | null {
  return typeof value === 'string' && value !== '' && value.length <= MAX_TEXT ? value : null;
}

/**
 * The user's group ids after a token: those DAM_OIDC_GROUP_MAP manages follow the claim (added when one
 * of the token's groups maps to them, removed otherwise); the others stay as an admin set them. Without
 * the claim nothing changes. Sorted, without duplicates.
 */
export function groupIdsAfterClaim(
  current: readonly number[],
  claimed: readonly string[] | undefined,
  groupMap: ReadonlyMap<string, readonly number[]>,
): number[] {
  if (claimed === undefined) return sortedUnique(current);
  const managed = new Set([...groupMap.values()].flat());
  const kept = current.filter((id) => !managed.has(id));
  const granted = claimed.flatMap((group) => groupMap.get(group) ?? []);
  return sortedUnique([...kept, ...granted]);
}

/**
 * Whether the user is an administrator after a token: with DAM_OIDC_ADMIN_GROUPS set and the groups
 * claim present, exactly when one of the token's groups is an admin group; otherwise unchanged.
 */
export function isAdminAfterClaim(
  current: boolean,
  claimed: readonly string[] | undefined,
  adminGroups: readonly string[],
): boolean {
  if (claimed === undefined || adminGroups.length === 0) return current;
  return claimed.some((group) => adminGroups.includes(group));
}

function sortedUnique(ids: readonly number[]): number[] {
  return [...new Set(ids)].sort((a, b) => a - b);
}
