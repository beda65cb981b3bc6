import { EXPORT_SUMMARY, EXPORT_SYNOPSIS, runExport } from '../export/export.command';
import { IMPORT_SUMMARY, IMPORT_SYNOPSIS, runImport } from '../import/import.command';
import { TransferIo } from '../transfer/connection';
import { CliCommand, CommandError, UsageError } from './command';

/**
 * `import` and `export` in the command list (help, in-process runs). `main.ts` runs them before loading
 * anything else of the CLI, as `upload`: they are HTTP clients of a running service.
 */
function transferCommand(
  name: string,
  synopsis: string,
  summary: string,
  run: (args: string[], io: TransferIo) => Promise<number>,
): CliCommand {
  return {
    name,
    synopsis,
    summary,
    async run(args, { print }) {
      const code = await run(args, {
        env: process.env,
        stdout: print,
        stderr: (line) => process.stderr.write(`${line}\n`),
        progressStream: process.stderr,
      });
      if (code === 2) throw new UsageError(`${name}: wrong command line (see above)`);
      if (code !== 0) throw new CommandError(`${name}: some files failed (see the report)`);
    },
  };
}

export const importCommand = transferCommand('import', IMPORT_SYNOPSIS, IMPORT_SUMMARY, runImport);
export const exportCommand = transferCommand('export', EXPORT_SYNOPSIS, EXPORT_SUMMARY, runExport);
