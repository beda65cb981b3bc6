import { ApplicationUserBootstrap, UsersService } from '@dam/access';
import { CliCommand, MIN_PASSWORD_LENGTH, parseCommandLine, passwordFrom, UsageError } from './command';

/**
 * Creates a user under the same rules as `POST /rest/users`, acting as the application user. The password
 * comes from standard input (`--password-stdin`), a prompt when stdin is a terminal, or (discouraged: it
 * shows in the process list and shell history) `--password`.
 */
export const createUserCommand: CliCommand = {
  name: 'create-user',
  synopsis: '<username> [--admin] [--password-stdin | --password <password>]',
  summary: 'create a user and print its id',
  async run(args, environment) {
    const { positionals, values } = parseCommandLine(
      args,
      { admin: { type: 'boolean' }, password: { type: 'string' }, 'password-stdin': { type: 'boolean' } },
      { min: 1, max: 1 },
    );
    let password = values.password;
    if (password !== undefined && values['password-stdin'] === true) {
      throw new UsageError('give either --password or --password-stdin');
    }
    if (password !== undefined && password.length < MIN_PASSWORD_LENGTH) {
      throw new UsageError(`--password must have at least ${MIN_PASSWORD_LENGTH} characters`);
    }
    password ??= await passwordFrom(environment, values['password-stdin'] === true, false);
    const app = await environment.context();
    const users = app.get(UsersService);
    const actor = await app.get(ApplicationUserBootstrap).ensureApplicationUser();
    const user = await users.create(actor, positionals[0]);
    if (values.admin === true || password !== undefined) {
      await users.update(actor, user.id, { isAdmin: values.admin === true, password });
    }
    environment.output({ id: user.id, username: user.username }, [String(user.id)]);
  },
};
