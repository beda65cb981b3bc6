import {
  ApplicationUserBootstrap,
  LoginThrottle,
  OAuthClientsService,
  SessionsService,
  TokensService,
  UsersService,
} from '@dam/access';
import { randomBytes } from 'node:crypto';
import { CliCommand, CommandError, parseCommandLine, passwordFrom, UsageError } from './command';

/** Every user: id, username, admin flag, as a table (or JSON). */
export const usersListCommand: CliCommand = {
  name: 'users:list',
  synopsis: '',
  summary: 'list the users (id, username, admin)',
  async run(args, environment) {
    parseCommandLine(args, {}, { min: 0, max: 0 });
    const app = await environment.context();
    const users = app.get(UsersService);
    const actor = await app.get(ApplicationUserBootstrap).ensureApplicationUser();
    const { ids } = await users.listIds(actor);
    const rows = [];
    for (const id of ids) {
      const user = await users.get(actor, id);
      rows.push({
        id: user.id,
        username: user.username,
        isAdmin: user.isAdmin,
        isApplication: user.isApplication,
      });
    }
    environment.output(
      rows,
      rows.map((row) =>
        [row.id, row.username, row.isAdmin ? 'admin' : row.isApplication ? 'application' : ''].join('\t'),
      ),
    );
  },
};

/**
 * A new password for a user, from standard input or a prompt (never argv). Like every password change, it
 * ends the user's sessions (tokens and signed URLs); `--revoke-tokens` is accepted for older scripts.
 */
export const resetPasswordCommand: CliCommand = {
  name: 'users:reset-password',
  synopsis: '<username> [--password-stdin]',
  summary: "set a user's password (stdin or prompt); it ends their sessions everywhere",
  async run(args, environment) {
    const { positionals, values } = parseCommandLine(
      args,
      { 'password-stdin': { type: 'boolean' }, 'revoke-tokens': { type: 'boolean' } },
      { min: 1, max: 1 },
    );
    const password = await passwordFrom(environment, values['password-stdin'] === true, true);
    const app = await environment.context();
    const users = app.get(UsersService);
    const user = await users.findByUsername(positionals[0]);
    if (user === null) throw new CommandError(`there is no user named ${positionals[0]}`);
    const actor = await app.get(ApplicationUserBootstrap).ensureApplicationUser();
    await users.update(actor, user.id, { password });
    environment.output({ id: user.id, username: user.username }, [
      `password of ${user.username} reset; their sessions ended`,
    ]);
  },
};

/** Lifts the login locks of a user (everywhere and per address) before their window ends. */
export const unlockUserCommand: CliCommand = {
  name: 'users:unlock',
  synopsis: '<username>',
  summary: 'lift the lock failed logins put on a user (docs/security.md, "Login lockout")',
  async run(args, environment) {
    const { positionals } = parseCommandLine(args, {}, { min: 1, max: 1 });
    const app = await environment.context();
    const user = await app.get(UsersService).findByUsername(positionals[0]);
    if (user === null) throw new CommandError(`there is no user named ${positionals[0]}`);
    await app.get(LoginThrottle).unlock({ kind: 'user', name: user.username });
    environment.output({ id: user.id, username: user.username }, [`${user.username} unlocked`]);
  },
};

/**
 * Revokes every live token of a user (any client), and invalidates the URLs they signed; or every live
 * token of a client (any user).
 */
export const tokensRevokeCommand: CliCommand = {
  name: 'tokens:revoke',
  synopsis: '--user <username> | --client <client_id>',
  summary: 'revoke every token of a user (and the URLs they signed) or of an OAuth client',
  async run(args, environment) {
    const { values } = parseCommandLine(
      args,
      { user: { type: 'string' }, client: { type: 'string' } },
      { min: 0, max: 0 },
    );
    if ((values.user === undefined) === (values.client === undefined)) {
      throw new UsageError('give exactly one of --user and --client');
    }
    const app = await environment.context();
    const tokens = app.get(TokensService);
    let revoked: number;
    if (values.user !== undefined) {
      const user = await app.get(UsersService).findByUsername(values.user);
      if (user === null) throw new CommandError(`there is no user named ${values.user}`);
      revoked = await app.get(SessionsService).endAll(user.id);
    } else {
      const client = await app.get(OAuthClientsService).findByClientId(values.client as string);
      if (client === null) throw new CommandError(`there is no client with id ${values.client}`);
      revoked = await tokens.revokeAllOfClient(client.id);
    }
    environment.output({ revokedTokens: revoked }, [`${revoked} tokens revoked`]);
  },
};

/** A new secret for an OAuth client, shown once; the old one stops working at once. */
export const rotateClientSecretCommand: CliCommand = {
  name: 'clients:rotate-secret',
  synopsis: '<client_id> [--revoke-tokens]',
  summary: "replace a client's secret and print the new one once; --revoke-tokens also ends its tokens",
  async run(args, environment) {
    const { positionals, values } = parseCommandLine(
      args,
      { 'revoke-tokens': { type: 'boolean' } },
      { min: 1, max: 1 },
    );
    const app = await environment.context();
    const clients = app.get(OAuthClientsService);
    const client = await clients.findByClientId(positionals[0]);
    if (client === null) throw new CommandError(`there is no client with id ${positionals[0]}`);
    const secret = newSecret();
    await clients.replaceSecret(client, secret);
    const revoked =
      values['revoke-tokens'] === true ? await app.get(TokensService).revokeAllOfClient(client.id) : 0;
    environment.output({ client_id: client.clientId, client_secret: secret, revokedTokens: revoked }, [
      `client_id=${client.clientId}`,
      `client_secret=${secret}`,
    ]);
  },
};

function newSecret(): string {
  return randomBytes(24).toString('base64url');
}
