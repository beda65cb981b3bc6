import { ConfigError } from './config-error';

/** DAM_OIDC_*: how JWTs of one OpenID Connect issuer are accepted, and how their claims become users. */
export interface OidcSettings {
  /** DAM_OIDC_ISSUER, exactly as the tokens' `iss` and the discovery document's `issuer` name it. */
  issuer: string;
  /** `{issuer}/.well-known/openid-configuration` */
  discoveryUrl: string;
  /** DAM_OIDC_AUDIENCE: a token's `aud` must name it. */
  audience: string;
  /** DAM_OIDC_USERNAME_CLAIM (a dotted path reaches into objects when no claim has the whole name). */
  usernameClaim: string;
  /** DAM_OIDC_GROUPS_CLAIM: a list of the identity provider's group names (or one name). */
  groupsClaim: string;
  /** DAM_OIDC_GROUP_MAP: identity provider group -> the ids of this service's groups it stands for. */
  groupMap: ReadonlyMap<string, readonly number[]>;
  /** DAM_OIDC_ADMIN_GROUPS: identity provider groups whose members are administrators here. */
  adminGroups: readonly string[];
  /** DAM_OIDC_CREATE_USERS: a token naming an unknown user creates them (else it is refused). */
  createUsers: boolean;
  /** DAM_OIDC_FETCH_TIMEOUT_MS: one fetch of the discovery document or of the keys fails after this. */
  fetchTimeoutMs: number;
}

/** What oidc-config needs of the environment reader (env-reader.ts's EnvReader). */
export interface OidcEnv {
  optionalString(name: string): string | undefined;
  string(name: string, fallback: string): string;
  boolean(name: string, fallback: boolean): boolean;
  integer(name: string, fallback: number, min: number, max?: number): number;
}

const DEPENDENT_VARIABLES = [
  'DAM_OIDC_AUDIENCE',
  'DAM_OIDC_USERNAME_CLAIM',
  'DAM_OIDC_GROUPS_CLAIM',
  'DAM_OIDC_GROUP_MAP',
  'DAM_OIDC_ADMIN_GROUPS',
  'DAM_OIDC_CREATE_USERS',
];

/** The single sign-on settings, or undefined when DAM_OIDC_ISSUER is unset. */
export function readOidcSettings(read: OidcEnv): OidcSettings | undefined {
  const issuer = read.optionalString('DAM_OIDC_ISSUER');
  if (issuer === undefined) {
    const orphan = DEPENDENT_VARIABLES.find((name) => read.optionalString(name) !== undefined);
    if (orphan !== undefined) throw new ConfigError(orphan, 'needs DAM_OIDC_ISSUER');
    return undefined;
  }
  const audience = read.optionalString('DAM_OIDC_AUDIENCE');
  if (audience === undefined)
    throw new ConfigError('DAM_OIDC_AUDIENCE', 'is required when DAM_OIDC_ISSUER is set');
  return {
    issuer: issuerUrl(issuer),
    discoveryUrl: `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`,
    audience,
    usernameClaim: read.string('DAM_OIDC_USERNAME_CLAIM', 'preferred_username'),
    groupsClaim: read.string('DAM_OIDC_GROUPS_CLAIM', 'groups'),
    groupMap: groupMap(read.optionalString('DAM_OIDC_GROUP_MAP')),
    adminGroups: nameList(read.optionalString('DAM_OIDC_ADMIN_GROUPS')),
    createUsers: read.boolean('DAM_OIDC_CREATE_USERS', true),
    fetchTimeoutMs: read.integer('DAM_OIDC_FETCH_TIMEOUT_MS', 5000, 100, 60_000),
  };
}

/**
 * An https URL (http only on loopback, for a provider on this machine), without query or fragment:
 * tokens and keys from it are trusted, so they must not travel in clear text.
 */
function issuerUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('DAM_OIDC_ISSUER', `must be an absolute https URL (got "${raw}")`);
  }
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  const secure = url.protocol === 'https:' || (url.protocol === 'http:' && loopback);
  if (!secure || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new ConfigError(
      'DAM_OIDC_ISSUER',
      `must be an https URL without query, fragment or credentials (http only on loopback; got "${raw}")`,
    );
  }
  return raw;
}

/** `idp-group=groupId,...`; a group may stand for several ids (listed again) and several for one. */
function groupMap(raw: string | undefined): Map<string, number[]> {
  const map = new Map<string, number[]>();
  for (const entry of nameList(raw)) {
    const separator = entry.lastIndexOf('=');
    const name = entry.slice(0, separator).trim();
    const id = Number(entry.slice(separator + 1).trim());
    if (separator <= 0 || name === '' || !Number.isSafeInteger(id) || id <= 0) {
      throw new ConfigError(
        'DAM_OIDC_GROUP_MAP',
        `must list idp-group=groupId pairs separated by commas (got "${entry}")`,
      );
    }
    const ids = map.get(name) ?? [];
    if (!ids.includes(id)) ids.push(id);
    map.set(name, ids);
  }
  return map;
}

function nameList(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}
