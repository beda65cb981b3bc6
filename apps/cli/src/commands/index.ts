import { CliCommand } from './command';
import { createClientCommand } from './create-client.command';
import { createUserCommand } from './create-user.command';
import { helpCommand } from './help.command';
import { issueTokenCommand } from './issue-token.command';
import { jobsListCommand, jobsRunCommand } from './jobs.command';
import { migrateCommand } from './migrate.command';
import { purgeTempFilesCommand } from './purge-temp-files.command';

export const COMMANDS: CliCommand[] = [
  migrateCommand,
  createUserCommand,
  createClientCommand,
  issueTokenCommand,
  purgeTempFilesCommand,
  jobsListCommand,
  jobsRunCommand,
  helpCommand(() => COMMANDS),
];
