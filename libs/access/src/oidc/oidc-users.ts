import { Injectable, Logger } from '@nestjs/common';
import { InvalidInput, StateConflict } from '@dam/errors';
import { OidcSettings } from '@dam/core';
import { ActorUser, toActor } from '../actor/actor';
import { UpdateUserDto } from '../users/dto/update-user.dto';
import { User } from '../users/user';
import { validUsername } from '../users/username';
import { UsersService } from '../users/users.service';
import { ClaimedIdentity, groupIdsAfterClaim, isAdminAfterClaim, UnusableClaim } from './claims';

export type OidcUserRules = Pick<OidcSettings, 'groupMap' | 'adminGroups' | 'createUsers'>;

/**
 * The user a verified token names, created on first use and brought in line with its claims, all
 * through UsersService acting as the application user (events, validation and the one writer of users).
 * Nothing is written when the user already matches, so a new token costs a write only when it changes
 * something.
 */
@Injectable()
export class OidcUsers {
  private readonly logger = new Logger('Oidc');

  constructor(private readonly users: UsersService) {}

  async sync(identity: ClaimedIdentity, rules: OidcUserRules): Promise<ActorUser> {
    try {
      return await this.syncOnce(identity, rules);
    } catch (error) {
      // A concurrent request (another token of the same user) changed them first: start again from theirs.
      if (!(error instanceof StateConflict)) throw error;
      return this.syncOnce(identity, rules);
    }
  }

  private async syncOnce(identity: ClaimedIdentity, rules: OidcUserRules): Promise<ActorUser> {
    const username = usernameOf(identity);
    const application = await this.users.applicationActor();
    if (application === null) throw new Error('the application user does not exist yet');
    const user =
      (await this.users.findByUsername(username)) ?? (await this.created(application, username, rules));
    if (user.isApplication) {
      throw new UnusableClaim(`the token names the application user (${username}), whom no one signs in as`);
    }
    const changes = await this.changesFor(user, identity, rules);
    return toActor(changes === undefined ? user : await this.users.update(application, user.id, changes));
  }

  private async created(application: ActorUser, username: string, rules: OidcUserRules): Promise<User> {
    if (!rules.createUsers) {
      throw new UnusableClaim(`no user is named ${username} here (DAM_OIDC_CREATE_USERS is off)`);
    }
    try {
      return await this.users.create(application, username);
    } catch (error) {
      if (!(error instanceof StateConflict)) throw error;
      return (await this.users.findByUsername(username)) ?? Promise.reject(error);
    }
  }

  /** What the token changes: mapped groups and admin from the groups claim, and names and email still empty. */
  private async changesFor(
    user: User,
    identity: ClaimedIdentity,
    rules: OidcUserRules,
  ): Promise<UpdateUserDto | undefined> {
    const changes: UpdateUserDto = {};
    const groupIds = await this.existing(
      user,
      groupIdsAfterClaim(user.groupIds, identity.groups, rules.groupMap),
    );
    if (groupIds.join(',') !== user.groupIds.join(',')) changes.groupIds = groupIds;
    const isAdmin = isAdminAfterClaim(user.isAdmin, identity.groups, rules.adminGroups);
    if (isAdmin !== user.isAdmin) changes.isAdmin = isAdmin;
    if (user.emailAddress === null && identity.emailAddress !== null)
      changes.emailAddress = identity.emailAddress;
    if (user.forename === null && identity.forename !== null) changes.forename = identity.forename;
    if (user.surname === null && identity.surname !== null) changes.surname = identity.surname;
    return Object.keys(changes).length === 0 ? undefined : changes;
  }

  /** `wanted` without the groups it would add that do not exist (the map may name a deleted group). */
  private async existing(user: User, wanted: number[]): Promise<number[]> {
    const added = wanted.filter((id) => !user.groupIds.includes(id));
    if (added.length === 0) return wanted;
    const found = new Set(await this.users.existingGroupIds(added));
    const missing = added.filter((id) => !found.has(id));
    if (missing.length === 0) return wanted;
    this.logger.warn(`DAM_OIDC_GROUP_MAP names group ${missing.join(', ')}, which does not exist: skipped`);
    return wanted.filter((id) => !missing.includes(id));
  }
}

function usernameOf(identity: ClaimedIdentity): string {
  try {
    // The identity provider owns its names: normalised like every username, in any script.
    return validUsername(identity.username, 'any');
  } catch (error) {
    if (error instanceof InvalidInput)
      throw new UnusableClaim(`the token's user name is unusable: ${error.message}`);
    throw error;
  }
}
