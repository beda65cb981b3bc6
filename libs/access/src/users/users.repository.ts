import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { CacheGenerations, isUniqueViolation } from '@dam/database';
import { StateConflict } from '@dam/errors';
import { InTransaction } from '@dam/events';
import { In, Repository, EntityManager } from 'typeorm';
import { GroupEntity } from './entities/group.entity';
import { UserEntity } from './entities/user.entity';

/** The generation every cache of the access area follows (tokens, users, groups, permissions). */
export const ACCESS_GENERATION = 'access';

export interface UserSearchCriteria {
  username?: string;
  emailAddress?: string;
  forename?: string;
  surname?: string;
  exactTextMatch: boolean;
}

const SEARCH_COLUMNS = {
  username: 'username',
  emailAddress: 'email_address',
  forename: 'forename',
  surname: 'surname',
} as const;

export interface Page {
  offset: number;
  limit: number;
}

@Injectable()
export class UsersRepository {
  constructor(
    @InjectRepository(UserEntity) private readonly users: Repository<UserEntity>,
    @InjectRepository(GroupEntity) private readonly groups: Repository<GroupEntity>,
    private readonly generations: CacheGenerations,
  ) {}

  // `find`, not `findOne`: with a relation, findOne's LIMIT makes TypeORM run a DISTINCT id query first.
  // id and username are unique, so one joined query answers (this runs on every authenticated request).
  async findById(id: number): Promise<UserEntity | null> {
    return (await this.users.find({ where: { id }, relations: { groups: true } }))[0] ?? null;
  }

  async findByUsername(username: string): Promise<UserEntity | null> {
    return (await this.users.find({ where: { username }, relations: { groups: true } }))[0] ?? null;
  }

  findApplicationUser(): Promise<UserEntity | null> {
    return this.users.findOne({ where: { isApplication: true }, order: { id: 'ASC' } });
  }

  async listIds(page?: Page): Promise<{ ids: number[]; total: number }> {
    const [rows, total] = await this.users.findAndCount({
      select: { id: true },
      order: { id: 'ASC' },
      skip: page?.offset,
      take: page?.limit,
    });
    return { ids: rows.map((row) => row.id), total };
  }

  search(criteria: UserSearchCriteria): Promise<UserEntity[]> {
    const query = this.users
      .createQueryBuilder('user')
      .leftJoinAndSelect('user.groups', 'group')
      .orderBy('user.id', 'ASC');
    for (const [field, columnName] of Object.entries(SEARCH_COLUMNS)) {
      const value = criteria[field as keyof typeof SEARCH_COLUMNS];
      if (value === undefined) continue;
      const parameter = `p_${field}`;
      if (criteria.exactTextMatch) {
        query.andWhere(`LOWER(user.${columnName}) = LOWER(:${parameter})`, { [parameter]: value });
      } else {
        query.andWhere(`LOWER(user.${columnName}) LIKE LOWER(:${parameter}) ESCAPE '!'`, {
          [parameter]: `%${escapeLike(value)}%`,
        });
      }
    }
    return query.getMany();
  }

  /** Usernames of the users among `ids` that exist. */
  async usernames(ids: number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.users.find({ select: { id: true, username: true }, where: { id: In(ids) } });
    return new Map(rows.map((row) => [row.id, row.username]));
  }

  /** Every user id, in username order (then id). */
  async idsInUsernameOrder(): Promise<number[]> {
    const rows = await this.users.find({ select: { id: true }, order: { username: 'ASC', id: 'ASC' } });
    return rows.map((row) => row.id);
  }

  exists(id: number): Promise<boolean> {
    return this.users.existsBy({ id });
  }

  /** One more credential generation for the user (URLs signed under the previous one stop working). */
  async raiseCredentialGeneration(id: number, manager: EntityManager): Promise<void> {
    await manager
      .getRepository(UserEntity)
      .update({ id }, { credentialGeneration: () => 'credential_generation + 1' });
  }

  findGroups(ids: number[]): Promise<GroupEntity[]> {
    return ids.length === 0 ? Promise.resolve([]) : this.groups.findBy({ id: In(ids) });
  }

  /**
   * Saves the user (and bumps the 'access' generation with it: actors, tokens and usernames are cached);
   * a username already taken (also by a concurrent request) is a 409.
   */
  async save(user: UserEntity, within?: InTransaction): Promise<UserEntity> {
    try {
      return await this.users.manager.transaction(async (manager) => {
        const saved = await manager.getRepository(UserEntity).save(user);
        await within?.(manager, saved.id);
        await this.generations.bump(ACCESS_GENERATION, manager);
        return saved;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new StateConflict(`a user named ${user.username} already exists`);
      throw error;
    }
  }

  async delete(id: number, within?: InTransaction): Promise<void> {
    await this.users.manager.transaction(async (manager) => {
      await manager.getRepository(UserEntity).delete({ id });
      await within?.(manager, id);
      await this.generations.bump(ACCESS_GENERATION, manager);
    });
  }
}

function escapeLike(value: string): string {
  return value.replace(/[!%_]/g, (char) => `!${char}`);
}
