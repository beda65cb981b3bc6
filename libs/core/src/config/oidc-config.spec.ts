import { AppConfig, ConfigError } from './app-config';

const ISSUER = { DAM_OIDC_ISSUER: 'https://login.example.com/realms/dam', DAM_OIDC_AUDIENCE: 'dam-api' };

function failingVariable(env: NodeJS.ProcessEnv): string {
  try {
    AppConfig.fromEnv(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.variable;
    throw error;
  }
  throw new Error(`no ConfigError for ${JSON.stringify(env)}`);
}

describe('DAM_OIDC_* (single sign-on)', () => {
  it('is off without DAM_OIDC_ISSUER', () => {
    expect(AppConfig.fromEnv({}).oidc).toBeUndefined();
  });

  it('has the documented defaults', () => {
    expect(AppConfig.fromEnv(ISSUER).oidc).toEqual({
      issuer: 'https://login.example.com/realms/dam',
      discoveryUrl: 'https://login.example.com/realms/dam/.well-known/openid-configuration',
      audience: 'dam-api',
      usernameClaim: 'preferred_username',
      groupsClaim: 'groups',
      groupMap: new Map(),
      adminGroups: [],
      createUsers: true,
      fetchTimeoutMs: 5000,
    });
  });

  it('reads the group map, admin groups and claims', () => {
    const oidc = AppConfig.fromEnv({
      ...ISSUER,
      DAM_OIDC_GROUP_MAP: ' /dam/editors=1, viewers=2 ,viewers=3,a=b=4 ',
      DAM_OIDC_ADMIN_GROUPS: 'dam-admins, 0b6f-guid',
      DAM_OIDC_USERNAME_CLAIM: 'upn',
      DAM_OIDC_GROUPS_CLAIM: 'realm_access.roles',
      DAM_OIDC_CREATE_USERS: 'false',
    }).oidc;
    expect(oidc?.groupMap).toEqual(
      new Map([
        ['/dam/editors', [1]],
        ['viewers', [2, 3]],
        ['a=b', [4]],
      ]),
    );
    expect(oidc).toMatchObject({
      adminGroups: ['dam-admins', '0b6f-guid'],
      usernameClaim: 'upn',
      groupsClaim: 'realm_access.roles',
      createUsers: false,
    });
  });

  it('accepts http on loopback only', () => {
    expect(AppConfig.fromEnv({ ...ISSUER, DAM_OIDC_ISSUER: 'http://127.0.0.1:8080' }).oidc?.issuer).toBe(
      'http://127.0.0.1:8080',
    );
  });

  it.each<[string, NodeJS.ProcessEnv, string]>([
    ['no audience', { DAM_OIDC_ISSUER: ISSUER.DAM_OIDC_ISSUER }, 'DAM_OIDC_AUDIENCE'],
    ['an audience without issuer', { DAM_OIDC_AUDIENCE: 'x' }, 'DAM_OIDC_AUDIENCE'],
    ['a group map without issuer', { DAM_OIDC_GROUP_MAP: 'a=1' }, 'DAM_OIDC_GROUP_MAP'],
    ['an issuer that is no URL', { ...ISSUER, DAM_OIDC_ISSUER: 'login.example.com' }, 'DAM_OIDC_ISSUER'],
    [
      'an http issuer off loopback',
      { ...ISSUER, DAM_OIDC_ISSUER: 'http://login.example.com' },
      'DAM_OIDC_ISSUER',
    ],
    [
      'an issuer with a query',
      { ...ISSUER, DAM_OIDC_ISSUER: 'https://l.example.com/?a=1' },
      'DAM_OIDC_ISSUER',
    ],
    ['a map entry without id', { ...ISSUER, DAM_OIDC_GROUP_MAP: 'editors' }, 'DAM_OIDC_GROUP_MAP'],
    ['a map id that is no id', { ...ISSUER, DAM_OIDC_GROUP_MAP: 'editors=x' }, 'DAM_OIDC_GROUP_MAP'],
    ['a map id of 0', { ...ISSUER, DAM_OIDC_GROUP_MAP: 'editors=0' }, 'DAM_OIDC_GROUP_MAP'],
    ['a map entry without name', { ...ISSUER, DAM_OIDC_GROUP_MAP: '=3' }, 'DAM_OIDC_GROUP_MAP'],
    [
      'a create flag that is no boolean',
      { ...ISSUER, DAM_OIDC_CREATE_USERS: 'maybe' },
      'DAM_OIDC_CREATE_USERS',
    ],
  ])('refuses %s, naming the variable', (_, env, variable) => {
    expect(failingVariable(env)).toBe(variable);
  });
});
