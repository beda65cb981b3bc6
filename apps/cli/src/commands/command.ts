import { INestApplicationContext } from '@nestjs/common';
import { AppConfig } from '@dam/core';
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
  /** `--json` was given: results go out as one JSON document (see `output`). */
  json: boolean;
  /** The result: `value` as JSON with `--json`, else `lines` as text. */
  output(value: unknown, lines: string[]): void;
  /**
   * A secret from standard input: all of it (trailing newline removed) when `--password-stdin` says so,
   * otherwise typed at a prompt (without echo) when stdin is a terminal. Undefined when neither applies.
   */
  readSecret(fromStdin: boolean, prompt: string): Promise<string | undefined>;
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

/** The database cannot be reached (or opened): one line, exit code 3. */
export class DatabaseUnreachable extends Error {}

/** The API's rule for passwords (UpdateUserDto). */
export const MIN_PASSWORD_LENGTH = 8;

/** A password from `--password-stdin` or a prompt, checked like the API does. */
export async function passwordFrom(
  environment: CommandEnvironment,
  fromStdin: boolean,
  required: boolean,
): Promise<string | undefined> {
  const password = await environment.readSecret(fromStdin, 'password: ');
  if (password === undefined) {
    if (required) throw new UsageError('give the password on standard input with --password-stdin');
    return undefined;
  }
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new UsageError(`the password must have at least ${MIN_PASSWORD_LENGTH} characters`);
  }
  return password;
}

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
