import { INestApplicationContext } from '@nestjs/common';
import { ApplicationUserBootstrap, UserEntity, UsersRepository } from '@dam/access';
import { CommandError } from './command';

/** The user named by --user, or the application user when the option is absent. */
export async function userOrApplication(
  app: INestApplicationContext,
  username: string | undefined,
): Promise<UserEntity> {
  if (username === undefined) return app.get(ApplicationUserBootstrap).ensureApplicationUser();
  const user = await app.get(UsersRepository).findByUsername(username);
  if (user === null) throw new CommandError(`there is no user named ${username}`);
  return user;
}
