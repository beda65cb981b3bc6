import { INestApplicationContext } from '@nestjs/common';
import { AppConfig } from '@dam/platform';
import { parseArgs, ParseArgsConfig } from 'node:util';

/** What a command may use: the validated configuration, the booted Nest context, and output. */
export interface CommandEnvironment {
  config: AppConfig;
  /** Boots the CLI's Nest context on first use (migrations run at boot, exactly as in the API). */
  context(): Promise<INestApplicationContext>;
  /**
   * The whole API's modules without HTTP (every lib that owns a maintenance job registers it), jobs not
   * scheduled: for the jobs commands. Boots on first use, instead of `context()`.
   */
  jobsContext(): Promise<INestApplicationContext>;
  /** A line of the command's result, on stdout. */
  print(line: string): void;
}

export interface CliCommand {
  name: string;
  /** Arguments after the name, as shown in the usage text. */
  synopsis: string;
  summary: string;
  /** Reads `args` (throwing UsageError) before doing anything, then does the work. */
  run(args: string[], environment: CommandEnvironment): Promise<void>;
}

/** The command line is wrong: the usage is shown and the exit code is 2. */
export class UsageError extends Error {}

/** The command could not do its work (unknown user, ...): the message is shown and the exit code is 1. */
export class CommandError extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;

/** node:util parseArgs in strict mode, with its errors turned into usage errors. */
export function parseCommandLine<T extends Options>(
  args: string[],
  options: T,
  positionals: { min: number; max: number },
) {
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const count = parsed.positionals.length;
  if (count < positionals.min) throw new UsageError('missing argument');
  if (count > positionals.max) {
    throw new UsageError(`unexpected argument "${parsed.positionals[positionals.max]}"`);
  }
  return parsed;
}

/** A whole number within bounds, for options such as --ttl. */
export function wholeNumber(raw: string, option: string, min: number, max: number): number {
  const value = /^\d{1,12}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new UsageError(`${option} must be a whole number from ${min} to ${max}`);
  }
  return value;
}
