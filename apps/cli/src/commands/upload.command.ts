import { UploadFailed } from '../upload/upload-client';
import { upload, UPLOAD_SUMMARY, UPLOAD_SYNOPSIS, UploadUsage } from '../upload/upload.command';
import { CliCommand, CommandError, UsageError } from './command';

/**
 * `upload` in the command list (help, in-process runs). `main.ts` runs it before loading anything else
 * of the CLI: it is an HTTP client of a running service, which needs neither Nest nor the database.
 */
export const uploadCommand: CliCommand = {
  name: 'upload',
  synopsis: UPLOAD_SYNOPSIS,
  summary: UPLOAD_SUMMARY,
  async run(args, { print }) {
    try {
      await upload(args, {
        env: process.env,
        stdout: print,
        stderr: (line) => process.stderr.write(`${line}\n`),
        progressStream: process.stderr,
      });
    } catch (error) {
      if (error instanceof UploadUsage) throw new UsageError(error.message);
      if (error instanceof UploadFailed) throw new CommandError(`upload failed: ${error.message}`);
      throw error;
    }
  },
};
