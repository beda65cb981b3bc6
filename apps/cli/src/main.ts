#!/usr/bin/env node
import '../../api/src/register-paths';

const output = {
  stdout: (line: string) => process.stdout.write(`${line}\n`),
  stderr: (line: string) => process.stderr.write(`${line}\n`),
};
const [command, ...args] = process.argv.slice(2);

// `upload` is an HTTP client of a running service: it loads none of the service's modules (no Nest,
// no database), so it starts fast on any machine that has the file.
const exitCode: Promise<number> =
  command === 'upload'
    ? import('./upload/upload.command').then(({ runUpload }) =>
        runUpload(args, { env: process.env, progressStream: process.stderr, ...output }),
      )
    : import('./cli').then(({ runCli }) =>
        runCli(process.argv.slice(2), { env: process.env, stdin: process.stdin, ...output }),
      );
void exitCode.then((code) => {
  process.exitCode = code;
});
