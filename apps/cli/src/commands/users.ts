import { INestApplicationContext } from '@nestjs/common';
import { ActorUser, ApplicationUserBootstrap, toActor, UsersService } from '@dam/access';
import { CommandError } from './command';

/** The user named by --user, or the application user when the option is absent. */
export async function userOrApplication(
  app: INestApplicationContext,
  username: string | undefined,
): Promise<ActorUser> {
  if (username === undefined) return app.get(ApplicationUserBootstrap).ensureApplicationUser();
  const user = await app.get(UsersService).findByUsername(username);
  if (user === null) throw new CommandError(`there is no user named ${username}`);
  return toActor(user);
}
