import { parseArgs, ParseArgsConfig } from 'node:util';
import { UploadFailed } from './dam-http';

/** The command line or the settings of an HTTP client command (`upload`, `import`, `export`) are wrong. */
export class UploadUsage extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;

/** node:util parseArgs (strict) for a command taking exactly one positional argument. */
export function parseClientArgs<T extends Options>(args: string[], options: T, missing: string) {
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UploadUsage((error as Error).message);
  }
  const [positional, ...extra] = parsed.positionals;
  if (positional === undefined) throw new UploadUsage(`missing ${missing}`);
  if (extra.length > 0) throw new UploadUsage(`unexpected argument "${extra[0]}"`);
  return { positional, values: parsed.values };
}

/**
 * The exit code of a client command that threw: 2 with the usage for a wrong command line, 1 with one
 * line for a request that failed; anything else is a bug and is thrown again.
 */
export function failureCode(
  error: unknown,
  io: { stderr(line: string): void },
  command: string,
  synopsis: string,
): number {
  if (error instanceof UploadUsage) {
    io.stderr(`${error.message}\nusage: dam ${command} ${synopsis}`);
    return 2;
  }
  if (error instanceof UploadFailed) {
    io.stderr(`${command} failed: ${error.message}`);
    return 1;
  }
  throw error;
}
