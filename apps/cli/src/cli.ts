import { ConsoleLogger, INestApplicationContext, Logger, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppConfig, ConfigError, DomainError } from '@dam/platform';
import { AppModule } from '../../api/src/app.module';
import { CliModule } from './cli.module';
import { CommandEnvironment, CommandError, UsageError } from './commands/command';
import { usage } from './commands/help.command';
import { COMMANDS } from './commands';

export interface CliIo {
  env: NodeJS.ProcessEnv;
  stdout(line: string): void;
  stderr(line: string): void;
}

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

/** Nest's diagnostics go to stderr so that stdout carries only results (ids, tokens) for scripts. */
class StderrLogger extends ConsoleLogger {
  protected override printMessages(messages: unknown[], context?: string, logLevel?: LogLevel): void {
    super.printMessages(messages, context, logLevel, 'stderr');
  }
}

/** Runs one command line and returns the exit code: 0 done, 1 failed, 2 wrong usage or configuration. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [first, ...args] = argv;
  const name = first === '--help' || first === '-h' ? 'help' : first;
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (command === undefined) {
    io.stderr(name === undefined ? 'no command given' : `unknown command "${name}"`);
    io.stderr(usage(COMMANDS));
    return EXIT_USAGE;
  }
  const logger = new StderrLogger({ logLevels: ['warn', 'error'] });
  // Also for code that logs before or without a Nest context (migrations).
  Logger.overrideLogger(logger);
  let app: INestApplicationContext | undefined;
  try {
    const config = AppConfig.fromEnv(io.env);
    const environment: CommandEnvironment = {
      config,
      print: io.stdout,
      context: async () => {
        app ??= await NestFactory.createApplicationContext(CliModule.forRoot(config), {
          logger,
          abortOnError: false,
        });
        return app;
      },
      jobsContext: async () => {
        // The CLI runs jobs on demand only: never on a schedule (DAM_JOBS_ENABLED=false here).
        const jobsConfig = Object.assign(Object.create(AppConfig.prototype) as AppConfig, config, {
          jobsEnabled: false,
        });
        app ??= await NestFactory.createApplicationContext(AppModule.forRoot(jobsConfig), {
          logger,
          abortOnError: false,
        });
        return app;
      },
    };
    await command.run(args, environment);
    return EXIT_OK;
  } catch (error) {
    return report(error, `${command.name} ${command.synopsis}`.trim(), io);
  } finally {
    await app?.close();
  }
}

function report(error: unknown, synopsis: string, io: CliIo): number {
  if (error instanceof UsageError) {
    io.stderr(`${error.message}\nusage: npm run cli -- ${synopsis}`);
    return EXIT_USAGE;
  }
  if (error instanceof ConfigError) {
    io.stderr(error.message);
    return EXIT_USAGE;
  }
  if (error instanceof CommandError || error instanceof DomainError) {
    io.stderr(error.message);
    return EXIT_FAILED;
  }
  io.stderr(error instanceof Error ? (error.stack ?? error.message) : String(error));
  return EXIT_FAILED;
}
