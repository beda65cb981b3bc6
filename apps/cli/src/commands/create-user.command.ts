import { ApplicationUserBootstrap, UsersService } from '@dam/access';
import { CliCommand, parseCommandLine, UsageError } from './command';

/** The API's rule for passwords (UpdateUserDto). */
const MIN_PASSWORD_LENGTH = 8;

/** Creates a user under the same rules as `POST /rest/users`, acting as the application user. */
export const createUserCommand: CliCommand = {
  name: 'create-user',
  synopsis: '<username> [--admin] [--password <password>]',
  summary: 'create a user and print its id',
  async run(args, { context, print }) {
    const { positionals, values } = parseCommandLine(
      args,
      { admin: { type: 'boolean' }, password: { type: 'string' } },
      { min: 1, max: 1 },
    );
    const password = values.password;
    if (password !== undefined && password.length < MIN_PASSWORD_LENGTH) {
      throw new UsageError(`--password must have at least ${MIN_PASSWORD_LENGTH} characters`);
    }
    const app = await context();
    const users = app.get(UsersService);
    const actor = await app.get(ApplicationUserBootstrap).ensureApplicationUser();
    const user = await users.create(actor, positionals[0]);
    if (values.admin === true || password !== undefined) {
      await users.update(actor, user.id, { isAdmin: values.admin === true, password });
    }
    print(String(user.id));
  },
};
