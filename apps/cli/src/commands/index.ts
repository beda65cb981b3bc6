import { CliCommand } from './command';
import { createClientAlias, createClientCommand } from './create-client.command';
import { createUserCommand } from './create-user.command';
import { helpCommand } from './help.command';
import { issueTokenCommand } from './issue-token.command';
import { jobsListCommand, jobsRunCommand } from './jobs.command';
import { migrateCommand } from './migrate.command';
import { purgeTempFilesCommand } from './purge-temp-files.command';
import { exportCommand, importCommand } from './transfer.commands';
import { uploadCommand } from './upload.command';
import {
  resetPasswordCommand,
  rotateClientSecretCommand,
  tokensRevokeCommand,
  unlockUserCommand,
  usersListCommand,
} from './users.commands';

/** Every command, in the order `help` lists them: a new command is one more entry here. */
export const COMMANDS: CliCommand[] = [
  migrateCommand,
  createUserCommand,
  usersListCommand,
  resetPasswordCommand,
  unlockUserCommand,
  createClientCommand,
  createClientAlias,
  rotateClientSecretCommand,
  issueTokenCommand,
  tokensRevokeCommand,
  purgeTempFilesCommand,
  jobsListCommand,
  jobsRunCommand,
  uploadCommand,
  importCommand,
  exportCommand,
  helpCommand(() => COMMANDS),
];
