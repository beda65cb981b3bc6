import { Injectable } from '@nestjs/common';
import { InvalidInput, NotPermitted } from '@dam/errors';
import { parseOptionalId } from '@dam/http';
import { UsersService } from '../users/users.service';
import { ActorUser, isPrivileged } from '../actor/actor';

/**
 * Resolves `userId` / `createAsUserId`: only admins and the application user may act as someone else;
 * a non-admin may name only themself. The named user's own permissions then apply.
 */
@Injectable()
export class ActorService {
  constructor(private readonly users: UsersService) {}

  async resolve(caller: ActorUser, requested: unknown, parameter = 'userId'): Promise<ActorUser> {
    const id = parseOptionalId(requested, parameter);
    if (id === undefined || id === caller.id) return caller;
    if (!isPrivileged(caller)) throw new NotPermitted(`you may not act as another user (${parameter})`);
    const user = id > 0 ? await this.users.findActor(id) : null;
    if (user === null) throw new InvalidInput(`${parameter} ${id} does not name a user`);
    return user;
  }
}
