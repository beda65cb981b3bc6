#!/usr/bin/env node
import '../../api/src/register-paths';

const output = {
  stdout: (line: string) => process.stdout.write(`${line}\n`),
  stderr: (line: string) => process.stderr.write(`${line}\n`),
};
const [command, ...args] = process.argv.slice(2);

// `upload`, `import` and `export` are HTTP clients of a running service: they load none of the
// service's modules (no Nest, no database), so they start fast on any machine that has the files.
const clientIo = { env: process.env, progressStream: process.stderr, ...output };
const HTTP_CLIENTS: Record<string, () => Promise<number>> = {
  upload: () => import('./upload/upload.command').then(({ runUpload }) => runUpload(args, clientIo)),
  import: () => import('./import/import.command').then(({ runImport }) => runImport(args, clientIo)),
  export: () => import('./export/export.command').then(({ runExport }) => runExport(args, clientIo)),
};
const exitCode: Promise<number> =
  command !== undefined && Object.hasOwn(HTTP_CLIENTS, command)
    ? HTTP_CLIENTS[command]()
    : import('./cli').then(({ runCli }) =>
        runCli(process.argv.slice(2), { env: process.env, stdin: process.stdin, ...output }),
      );
void exitCode.then((code) => {
  process.exitCode = code;
});
