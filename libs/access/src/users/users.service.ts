import { Injectable } from '@nestjs/common';
import { AppConfig } from '@dam/core';
import { CacheGenerations, GenerationCached, GenerationLru } from '@dam/database';
import { InvalidInput, StateConflict, NotPermitted, UnknownResource } from '@dam/errors';
import { DomainEvents } from '@dam/events';
import { Paging, UrlService } from '@dam/http';
import { ActorUser, isPrivileged, toActor } from '../actor/actor';
import { isSelfOrAdmin, requireAdmin } from '../actor/policy';
import { UpdateUserDto } from './dto/update-user.dto';
import { UserEntity } from './entities/user.entity';
import { PasswordHasher } from './password-hasher';
import { User } from './user';
import { ACCESS_GENERATION, UserSearchCriteria, UsersRepository } from './users.repository';
import { UserCreated, UserDeleted, userEventData, UserUpdated } from './user-events';
import { auditedUser, userChanges } from './user-changes';
import { SessionEnder } from './session-ender';
import { validUsername } from './username';

/** Rules for users: only admins (and the application user) manage them; anyone may read themself. */
@Injectable()
export class UsersService {
  /** Usernames by user id (shown as the uploader of every asset), following the 'access' generation. */
  private readonly usernameCache: GenerationLru<number, string>;
  /** The application user (trusted-network requests act as it), following the 'access' generation. */
  private readonly application: GenerationCached<ActorUser | null>;

  constructor(
    private readonly users: UsersRepository,
    private readonly hasher: PasswordHasher,
    generations: CacheGenerations,
    private readonly events: DomainEvents,
    private readonly urls: UrlService,
    private readonly config: AppConfig,
    private readonly sessions: SessionEnder,
  ) {
    this.usernameCache = new GenerationLru(generations, [ACCESS_GENERATION], { capacity: 10_000 });
    this.application = new GenerationCached(generations, [ACCESS_GENERATION], async () => {
      const user = await this.users.findApplicationUser();
      return user === null ? null : toActor(user);
    });
  }

  async listIds(actor: ActorUser, paging?: Paging): Promise<{ ids: number[]; total: number }> {
    requireAdmin(actor, 'manage users');
    return this.users.listIds(paging && { offset: paging.offset, limit: paging.pageSize });
  }

  async create(actor: ActorUser, rawUsername: unknown): Promise<User> {
    requireAdmin(actor, 'manage users');
    const username = validUsername(rawUsername, this.config.usernameCharacters);
    if ((await this.users.findByUsername(username)) !== null) {
      throw new StateConflict(`a user named ${username} already exists`);
    }
    const now = new Date();
    const user = Object.assign(new UserEntity(), {
      username,
      emailAddress: null,
      forename: null,
      surname: null,
      passwordHash: null,
      isAdmin: false,
      isApplication: false,
      groups: [],
      createdAt: now,
      updatedAt: now,
    });
    const saved = await this.users.save(user, (manager, id) =>
      this.events.record(
        manager,
        new UserCreated(userEventData(this.urls, id, actor.id)).withChanges(
          userChanges(undefined, auditedUser(user)),
        ),
      ),
    );
    return toUser(saved);
  }

  async get(actor: ActorUser, id: number): Promise<User> {
    if (!isSelfOrAdmin(actor, id)) throw new NotPermitted('you may only read your own user');
    return this.getOrThrow(id);
  }

  async update(actor: ActorUser, id: number, changes: UpdateUserDto): Promise<User> {
    if (!isSelfOrAdmin(actor, id)) throw new NotPermitted('only administrators may change other users');
    const user = await this.entityOrThrow(id);
    const before = auditedUser(user);
    if (!isPrivileged(actor)) refuseSelfEscalation(user, changes);
    // A name stored before the character rule keeps working as long as it is not changed.
    if (changes.username !== undefined && changes.username !== user.username)
      user.username = validUsername(changes.username, this.config.usernameCharacters);
    if (changes.emailAddress !== undefined) user.emailAddress = emptyToNull(changes.emailAddress);
    if (changes.forename !== undefined) user.forename = emptyToNull(changes.forename);
    if (changes.surname !== undefined) user.surname = emptyToNull(changes.surname);
    if (changes.isAdmin !== undefined && !user.isApplication) user.isAdmin = changes.isAdmin;
    if (changes.groupIds !== undefined) user.groups = await this.groupsOrThrow(changes.groupIds);
    const passwordChanged = changes.password !== undefined;
    if (changes.password !== undefined) user.passwordHash = await this.hasher.hash(changes.password);
    user.updatedAt = new Date();
    await this.users.save(user, async (manager) => {
      const changed = userChanges(before, auditedUser(user), passwordChanged);
      await this.events.record(
        manager,
        new UserUpdated(userEventData(this.urls, id, actor.id)).withChanges(changed),
      );
      // A new password ends every session of the user, the caller's own too (docs/security.md).
      if (passwordChanged) await this.sessions.endAll(id, manager);
    });
    return this.getOrThrow(id);
  }

  async delete(actor: ActorUser, id: number): Promise<void> {
    requireAdmin(actor, 'manage users');
    const user = await this.entityOrThrow(id);
    if (user.isApplication) throw new InvalidInput('the application user cannot be deleted');
    if (user.id === actor.id) throw new InvalidInput('you cannot delete your own user');
    await this.users.delete(id, (manager) =>
      this.events.record(
        manager,
        new UserDeleted(userEventData(this.urls, id, actor.id)).withChanges(
          userChanges(auditedUser(user), undefined),
        ),
      ),
    );
  }

  async deleteByUsername(actor: ActorUser, rawUsername: unknown): Promise<void> {
    requireAdmin(actor, 'manage users');
    if (typeof rawUsername !== 'string' || rawUsername === '') {
      throw new InvalidInput('you must supply the username of the user to delete');
    }
    const user = await this.users.findByUsername(rawUsername);
    if (user === null) throw new UnknownResource(`user ${rawUsername} does not exist`);
    await this.delete(actor, user.id);
  }

  async search(actor: ActorUser, criteria: UserSearchCriteria): Promise<User[]> {
    requireAdmin(actor, 'manage users');
    return (await this.users.search(criteria)).map(toUser);
  }

  async getOrThrow(id: number): Promise<User> {
    return toUser(await this.entityOrThrow(id));
  }

  /** The user named `username`, or null. */
  async findByUsername(username: string): Promise<User | null> {
    const user = await this.users.findByUsername(username);
    return user === null ? null : toUser(user);
  }

  /** The user as an actor (for acting as them, or as the owner of something), or null when unknown. */
  async findActor(userId: number): Promise<ActorUser | null> {
    const user = await this.users.findById(userId);
    return user === null ? null : toActor(user);
  }

  /**
   * The signer of a signed URL as an actor: null when the user is unknown, or when `generation` is no
   * longer their credential generation (their sessions ended since the URL was signed).
   */
  async findSigner(userId: number, generation: number): Promise<ActorUser | null> {
    const user = await this.users.findById(userId);
    return user === null || user.credentialGeneration !== generation ? null : toActor(user);
  }

  /** The user's current credential generation (what a URL they sign now is bound to). */
  async credentialGeneration(userId: number): Promise<number> {
    return (await this.entityOrThrow(userId)).credentialGeneration;
  }

  /** The application user as an actor, or null before the bootstrap created it. */
  applicationActor(): Promise<ActorUser | null> {
    return this.application.get();
  }

  exists(userId: number): Promise<boolean> {
    return this.users.exists(userId);
  }

  /** Usernames of the users among `ids` that exist (unknown ids are absent from the map). */
  usernames(ids: number[]): Promise<Map<number, string>> {
    return this.usernameCache.getMany(ids, (missing) => this.users.usernames(missing));
  }

  /** The user's username when held in memory and current, without a promise (else `usernames`). */
  heldUsername(id: number): string | undefined {
    return this.usernameCache.peek(id);
  }

  /** The id of the user named exactly `username`: none or one. */
  async idsByUsername(username: string): Promise<number[]> {
    const user = await this.users.findByUsername(username);
    return user === null ? [] : [user.id];
  }

  /** Every user id, ordered by username (then id): what sorting by user compares. */
  idsInUsernameOrder(): Promise<number[]> {
    return this.users.idsInUsernameOrder();
  }

  /** The ids among `ids` that name existing groups. */
  async existingGroupIds(ids: readonly number[]): Promise<number[]> {
    return (await this.users.findGroups([...new Set(ids)])).map((group) => group.id);
  }

  private async entityOrThrow(id: number): Promise<UserEntity> {
    const user = await this.users.findById(id);
    if (user === null) throw new UnknownResource(`user ${id} does not exist`);
    return user;
  }

  private async groupsOrThrow(ids: number[]) {
    const unique = [...new Set(ids)];
    const groups = await this.users.findGroups(unique);
    const missing = unique.filter((id) => !groups.some((group) => group.id === id));
    if (missing.length > 0) throw new InvalidInput(`group ${missing.join(', ')} does not exist`);
    return groups;
  }
}

function toUser(user: UserEntity): User {
  return {
    id: user.id,
    username: user.username,
    emailAddress: user.emailAddress,
    forename: user.forename,
    surname: user.surname,
    isAdmin: user.isAdmin,
    isApplication: user.isApplication,
    groupIds: (user.groups ?? []).map((group) => group.id).sort((a, b) => a - b),
  };
}

/** A user editing themself may change their names, email and password, nothing that grants power. */
function refuseSelfEscalation(user: UserEntity, changes: UpdateUserDto): void {
  const currentGroups = (user.groups ?? []).map((group) => group.id).sort((a, b) => a - b);
  const requestedGroups = changes.groupIds && [...new Set(changes.groupIds)].sort((a, b) => a - b);
  if (
    (changes.isAdmin !== undefined && changes.isAdmin !== user.isAdmin) ||
    (changes.username !== undefined && changes.username !== user.username) ||
    (requestedGroups !== undefined && requestedGroups.join(',') !== currentGroups.join(','))
  ) {
    throw new NotPermitted('only administrators may change usernames, groups or administrator rights');
  }
}

function emptyToNull(value: string | null): string | null {
  return value === null || value === '' ? null : value;
}
