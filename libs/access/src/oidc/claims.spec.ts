import { claimAt, groupIdsAfterClaim, identityOf, isAdminAfterClaim, UnusableClaim } from './claims';

// editors -> 10, viewers -> 11 and 12, all-staff -> 12: groups 10, 11 and 12 follow the claim.
const MAP = new Map<string, number[]>([
  ['editors', [10]],
  ['viewers', [11, 12]],
  ['all-staff', [12]],
]);

describe('groupIdsAfterClaim (DESIGN §12: mapped groups follow each new token)', () => {
  it.each<[string, number[], string[] | undefined, number[]]>([
    ['no claim: nothing changes', [10, 3], undefined, [3, 10]],
    ['an empty claim removes every mapped group', [10, 11, 3], [], [3]],
    ['a claimed group is added', [3], ['editors'], [3, 10]],
    ['a mapped group the claim lacks is removed', [10, 11, 12], ['editors'], [10]],
    ['groups outside the map are left alone', [1, 2, 10], ['viewers'], [1, 2, 11, 12]],
    ['one provider group may stand for several ids', [], ['viewers'], [11, 12]],
    ['several provider groups for one id give it once', [], ['viewers', 'all-staff'], [11, 12]],
    ['provider groups outside the map grant nothing', [3], ['strangers', 'EDITORS'], [3]],
    ['already right: the same ids', [10, 3], ['editors'], [3, 10]],
  ])('%s', (_, current, claimed, expected) => {
    expect(groupIdsAfterClaim(current, claimed, MAP)).toEqual(expected);
  });

  it('an empty map manages nothing, whatever the claim', () => {
    expect(groupIdsAfterClaim([4, 5], [], new Map())).toEqual([4, 5]);
  });
});

describe('isAdminAfterClaim (DAM_OIDC_ADMIN_GROUPS)', () => {
  it.each<[string, boolean, string[] | undefined, string[], boolean]>([
    ['no claim: unchanged (admin)', true, undefined, ['dam-admins'], true],
    ['no claim: unchanged (not admin)', false, undefined, ['dam-admins'], false],
    ['an admin group grants', false, ['staff', 'dam-admins'], ['dam-admins'], true],
    ['no admin group removes', true, ['staff'], ['dam-admins'], false],
    ['an empty claim removes', true, [], ['dam-admins'], false],
    ['no admin groups configured: unchanged', true, [], [], true],
  ])('%s', (_, current, claimed, adminGroups, expected) => {
    expect(isAdminAfterClaim(current, claimed, adminGroups)).toBe(expected);
  });
});

describe('identityOf and claimAt', () => {
  const settings = { usernameClaim: 'preferred_username', groupsClaim: 'groups' };

  it('reads the user and the standard claims', () => {
    expect(
      identityOf(
        {
          preferred_username: 'ada',
          email: 'ada@example.com',
          given_name: 'Ada',
          family_name: 'Lovelace',
          groups: ['editors'],
        },
        settings,
      ),
    ).toEqual({
      username: 'ada',
      emailAddress: 'ada@example.com',
      forename: 'Ada',
      surname: 'Lovelace',
      groups: ['editors'],
    });
  });

  it('a missing groups claim is undefined, one name a list of one', () => {
    expect(identityOf({ preferred_username: 'a' }, settings).groups).toBeUndefined();
    expect(identityOf({ preferred_username: 'a', groups: 'editors' }, settings).groups).toEqual(['editors']);
  });

  it.each<[string, Record<string, unknown>]>([
    ['no username claim', { sub: 'x' }],
    ['an empty username', { preferred_username: ' ' }],
    ['a username that is not text', { preferred_username: 7 }],
    ['groups that are not names', { preferred_username: 'a', groups: [1, 2] }],
    ['groups as an object', { preferred_username: 'a', groups: { editors: true } }],
  ])('refuses %s', (_, payload) => {
    expect(() => identityOf(payload, settings)).toThrow(UnusableClaim);
  });

  it('claimAt prefers the whole name, then a dotted path', () => {
    const payload = { 'https://x.example/groups': ['a'], realm_access: { roles: ['r'] } };
    expect(claimAt(payload, 'https://x.example/groups')).toEqual(['a']);
    expect(claimAt(payload, 'realm_access.roles')).toEqual(['r']);
    expect(claimAt(payload, 'realm_access.missing')).toBeUndefined();
    expect(claimAt(payload, 'toString')).toBeUndefined();
  });
});
