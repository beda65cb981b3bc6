import { OAuthClientsService } from '@dam/access';
import { CliCommand, parseCommandLine } from './command';
import { userOrApplication } from './users';

/** An OAuth client whose client_credentials tokens act as the given user. The secret is shown once. */
export const createClientCommand: CliCommand = {
  name: 'clients:create',
  synopsis: '[--user <username>] [--name <name>]',
  summary: 'create an OAuth client acting as a user (default: application); prints its secret once',
  async run(args, { context, output }) {
    const { values } = parseCommandLine(
      args,
      { user: { type: 'string' }, name: { type: 'string' } },
      { min: 0, max: 0 },
    );
    const app = await context();
    const user = await userOrApplication(app, values.user);
    const { client, secret } = await app
      .get(OAuthClientsService)
      .create(user.id, values.name ?? `cli client of ${user.username}`);
    output({ client_id: client.clientId, client_secret: secret, username: user.username }, [
      `client_id=${client.clientId}`,
      `client_secret=${secret}`,
    ]);
  },
};

/** The name `create-client` had before the `area:verb` names; kept for scripts. */
export const createClientAlias: CliCommand = { ...createClientCommand, name: 'create-client' };
