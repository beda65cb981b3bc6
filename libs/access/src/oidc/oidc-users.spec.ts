import { StateConflict } from '@dam/errors';
import { User } from '../users/user';
import { UsersService } from '../users/users.service';
import { ClaimedIdentity, UnusableClaim } from './claims';
import { OidcUserRules, OidcUsers } from './oidc-users';

const APPLICATION = { id: 1, username: 'application', isAdmin: true, isApplication: true };
const RULES: OidcUserRules = {
  groupMap: new Map([['editors', [10]]]),
  adminGroups: ['admins'],
  createUsers: true,
};

/** UsersService as OidcUsers uses it, over a list of users; records the writes. */
class FakeUsers {
  readonly writes: string[] = [];
  readonly groups = new Set([10]);
  /** A concurrent request creates the user between the lookup and our create. */
  raceOnCreate = false;

  constructor(public users: User[]) {}

  applicationActor = async () => APPLICATION;
  findByUsername = async (username: string) => this.users.find((user) => user.username === username) ?? null;
  existingGroupIds = async (ids: number[]) => ids.filter((id) => this.groups.has(id));

  create = async (_actor: unknown, username: string): Promise<User> => {
    const user = { ...blank(this.users.length + 1), username };
    this.users.push(user);
    if (this.raceOnCreate) throw new StateConflict(`a user named ${username} already exists`);
    this.writes.push(`create ${username}`);
    return user;
  };

  update = async (_actor: unknown, id: number, changes: Partial<User>): Promise<User> => {
    const user = this.users.find((candidate) => candidate.id === id) as User;
    Object.assign(user, changes);
    this.writes.push(`update ${user.username} ${JSON.stringify(changes)}`);
    return user;
  };
}

function blank(id: number): User {
  return {
    id,
    username: '',
    emailAddress: null,
    forename: null,
    surname: null,
    isAdmin: false,
    isApplication: false,
    groupIds: [],
  };
}

const identity = (fields: Partial<ClaimedIdentity>): ClaimedIdentity => ({
  username: 'ada',
  emailAddress: null,
  forename: null,
  surname: null,
  groups: undefined,
  ...fields,
});

function subject(users: User[] = [{ ...blank(1), ...APPLICATION }]) {
  const fake = new FakeUsers(users);
  return { fake, oidcUsers: new OidcUsers(fake as unknown as UsersService) };
}

describe('OidcUsers: the user of a verified token', () => {
  it('creates an unknown user with the claims, in one create and one update', async () => {
    const { fake, oidcUsers } = subject();
    const actor = await oidcUsers.sync(
      identity({ emailAddress: 'a@x', groups: ['editors', 'admins'] }),
      RULES,
    );
    expect(actor).toMatchObject({ username: 'ada', isAdmin: true });
    expect(fake.writes).toEqual([
      'create ada',
      'update ada {"groupIds":[10],"isAdmin":true,"emailAddress":"a@x"}',
    ]);
  });

  it('writes nothing when the user already matches the token', async () => {
    const { fake, oidcUsers } = subject([
      { ...blank(2), username: 'ada', groupIds: [10], emailAddress: 'a@x' },
    ]);
    await oidcUsers.sync(identity({ emailAddress: 'other@x', groups: ['editors'] }), RULES);
    expect(fake.writes).toEqual([]);
  });

  it('refuses an unknown user when DAM_OIDC_CREATE_USERS is off', async () => {
    const { fake, oidcUsers } = subject();
    await expect(oidcUsers.sync(identity({}), { ...RULES, createUsers: false })).rejects.toThrow(
      new UnusableClaim('no user is named ada here (DAM_OIDC_CREATE_USERS is off)'),
    );
    expect(fake.writes).toEqual([]);
  });

  it('refuses the application user and an unusable username', async () => {
    const { oidcUsers } = subject();
    await expect(oidcUsers.sync(identity({ username: 'application' }), RULES)).rejects.toThrow(UnusableClaim);
    await expect(oidcUsers.sync(identity({ username: 'a\u0007b' }), RULES)).rejects.toThrow(UnusableClaim);
  });

  it('skips a mapped group that does not exist', async () => {
    const { fake, oidcUsers } = subject();
    fake.groups.clear();
    await oidcUsers.sync(identity({ groups: ['editors'] }), RULES);
    expect(fake.writes).toEqual(['create ada']);
  });

  it('takes over the user a concurrent request created first', async () => {
    const { fake, oidcUsers } = subject();
    fake.raceOnCreate = true;
    const actor = await oidcUsers.sync(identity({ groups: ['editors'] }), RULES);
    expect(actor.username).toBe('ada');
    expect(fake.writes).toEqual(['update ada {"groupIds":[10]}']);
  });
});
