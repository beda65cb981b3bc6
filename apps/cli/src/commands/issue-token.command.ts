import { INestApplicationContext } from '@nestjs/common';
import { ApplicationUserBootstrap, OAuthClientsService, TokensService } from '@dam/access';
import { AppConfig } from '@dam/core';
import { CliCommand, CommandError, parseCommandLine, wholeNumber } from './command';
import { userOrApplication } from './users';

const MAX_TTL_SECONDS = 366 * 24 * 3600;

/** An access token for a user, issued on the application's OAuth client (so that client can revoke it). */
export const issueTokenCommand: CliCommand = {
  name: 'issue-token',
  synopsis: '[--user <username>] [--ttl <seconds>]',
  summary: 'print an access token for a user (default: application)',
  async run(args, { config, context, output }) {
    const { values } = parseCommandLine(
      args,
      { user: { type: 'string' }, ttl: { type: 'string' } },
      { min: 0, max: 0 },
    );
    const ttlSeconds =
      values.ttl === undefined
        ? config.accessTokenTtlSeconds
        : wholeNumber(values.ttl, '--ttl', 1, MAX_TTL_SECONDS);
    const app = await context();
    const user = await userOrApplication(app, values.user);
    const client = await applicationClient(app, config);
    const token = await app
      .get(TokensService)
      .issue(client, user.id, { withRefreshToken: false, ttlSeconds });
    output(token, [token.access_token]);
  },
};

/** DAM_CLIENT_ID's client when configured, else the one generated for the application user at first boot. */
async function applicationClient(app: INestApplicationContext, config: AppConfig) {
  const clients = app.get(OAuthClientsService);
  const application = await app.get(ApplicationUserBootstrap).ensureApplicationUser();
  const client =
    config.clientId === undefined
      ? await clients.findFirstOfUser(application.id)
      : await clients.findByClientId(config.clientId);
  if (client === null) throw new CommandError('the application user has no OAuth client');
  return client;
}
