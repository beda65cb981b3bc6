import { ConsoleLogger, INestApplicationContext, Logger, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppConfig, ConfigError } from '@dam/core';
import { DomainError } from '@dam/errors';
import { AppModule } from '../../api/src/app.module';
import { CliModule } from './cli.module';
import { CommandEnvironment, CommandError, DatabaseUnreachable, UsageError } from './commands/command';
import { usage } from './commands/help.command';
import { COMMANDS } from './commands';
import { readSecret } from './secret-input';

export interface CliIo {
  env: NodeJS.ProcessEnv;
  stdout(line: string): void;
  stderr(line: string): void;
  /** Where `--password-stdin` reads from, and where a prompt reads when it is a terminal. */
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
}

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;
export const EXIT_DATABASE_UNREACHABLE = 3;

/** Boot failures Nest logs itself (the database's retries, the failed boot): the CLI reports them once. */
const QUIET_CONTEXTS = new Set(['TypeOrmModule', 'ExceptionHandler']);

/**
 * Nest's diagnostics go to stderr so that stdout carries only results (ids, tokens) for scripts. The
 * database module's connection retries are not shown: a database that stays unreachable is reported once,
 * in one line (exit 3); stack traces only with DAM_CLI_DEBUG=true.
 */
class StderrLogger extends ConsoleLogger {
  constructor(private readonly showDetails: boolean) {
    super({ logLevels: ['warn', 'error'] });
  }

  protected override printMessages(messages: unknown[], context?: string, logLevel?: LogLevel): void {
    if (!this.showDetails && QUIET_CONTEXTS.has(context ?? '')) return;
    super.printMessages(messages, context, logLevel, 'stderr');
  }

  protected override printStackTrace(stack: string): void {
    if (this.showDetails) super.printStackTrace(stack);
  }
}

/**
 * Runs one command line and returns the exit code: 0 done, 1 failed, 2 wrong usage or configuration,
 * 3 database unreachable. `--json` anywhere on the line makes commands print JSON.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const json = argv.includes('--json');
  const [first, ...args] = argv.filter((arg) => arg !== '--json');
  const name = first === '--help' || first === '-h' ? 'help' : first;
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (command === undefined) {
    io.stderr(name === undefined ? 'no command given' : `unknown command "${name}"`);
    io.stderr(usage(COMMANDS));
    return EXIT_USAGE;
  }
  const logger = new StderrLogger(io.env.DAM_CLI_DEBUG === 'true');
  // Also for code that logs before or without a Nest context (migrations).
  Logger.overrideLogger(logger);
  let app: INestApplicationContext | undefined;
  try {
    const config = AppConfig.fromEnv(io.env);
    const boot = async (module: Parameters<typeof NestFactory.createApplicationContext>[0]) => {
      try {
        return await NestFactory.createApplicationContext(module, { logger, abortOnError: false });
      } catch (error) {
        throw isDatabaseFailure(error) ? new DatabaseUnreachable(databaseMessage(config, error)) : error;
      }
    };
    const environment: CommandEnvironment = {
      config,
      print: io.stdout,
      json,
      output: (value, lines) => {
        if (json) io.stdout(JSON.stringify(value, null, 2));
        else lines.forEach((line) => io.stdout(line));
      },
      readSecret: (fromStdin, prompt) => readSecret(io.stdin, fromStdin, prompt, io.stderr),
      context: async () => {
        app ??= await boot(CliModule.forRoot(config));
        return app;
      },
      jobsContext: async () => {
        // The CLI runs jobs on demand only: never on a schedule (DAM_JOBS_ENABLED=false here).
        const jobsConfig = Object.assign(Object.create(AppConfig.prototype) as AppConfig, config, {
          jobsEnabled: false,
        });
        app ??= await boot(AppModule.forRoot(jobsConfig));
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

/** Errors of reaching, logging in to or opening the database (booting runs migrations: those are not). */
function isDatabaseFailure(error: unknown): boolean {
  const { code, driverError } = (error ?? {}) as { code?: unknown; driverError?: unknown };
  if (driverError !== undefined && driverError !== error) return isDatabaseFailure(driverError);
  return (
    typeof code === 'string' &&
    /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN|ER_ACCESS_DENIED_ERROR|ER_DBACCESS_DENIED_ERROR|ER_BAD_DB_ERROR|PROTOCOL_CONNECTION_LOST|SQLITE_CANTOPEN|SQLITE_NOTADB|SQLITE_READONLY|EACCES|EROFS)$/.test(
      code,
    )
  );
}

/** One line naming the database (never its password) and the reason. */
function databaseMessage(config: AppConfig, error: unknown): string {
  let where = `SQLite in ${config.dataDir}`;
  if (config.databaseUrl !== undefined) {
    const url = new URL(config.databaseUrl);
    where = `${url.protocol}//${url.host}${url.pathname}`;
  }
  const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
  return `the database is unreachable (${where}): ${reason}`;
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
  if (error instanceof DatabaseUnreachable) {
    io.stderr(error.message);
    return EXIT_DATABASE_UNREACHABLE;
  }
  if (error instanceof CommandError || error instanceof DomainError) {
    io.stderr(error.message);
    return EXIT_FAILED;
  }
  io.stderr(error instanceof Error ? (error.stack ?? error.message) : String(error));
  return EXIT_FAILED;
}
