'use strict';
/**
 * A `node -r` hook for the processes the tests start from the sources (ServiceProcess, the CLI, `dam
 * upload`): the same output as `ts-node/register/transpile-only` (TypeScript's transpileModule with
 * tsconfig.json's options), kept on disk by content hash. The first start after a change pays for the
 * transpiling; every later one loads TypeScript not at all: a start of the API took 4.5 s of CPU instead
 * of 15 here, and 170 MB of RSS instead of 400 (bench/results/spec-times.md).
 *
 * The cache lives in node_modules/.cache/dam-ts (or DAM_TS_CACHE_DIR). A key covers the file's path and
 * source, the compiler options and TypeScript's version, so a stale entry is never read; each edited
 * version of a file adds one, and the folder may be deleted at any time. Plain JavaScript, because it
 * loads before anything can compile TypeScript.
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
const CACHE = process.env.DAM_TS_CACHE_DIR ?? path.join(ROOT, 'node_modules', '.cache', 'dam-ts');

const tsconfigText = fs.readFileSync(path.join(ROOT, 'tsconfig.json'), 'utf8');
const typescriptVersion = require('typescript/package.json').version;
const salt = `${typescriptVersion}\0${tsconfigText}\0`;

let compilerOptions;
/** TypeScript and the parsed tsconfig.json, loaded on the first cache miss only. */
function transpiler() {
  const ts = require('typescript');
  if (compilerOptions === undefined) {
    const parsed = ts.parseJsonConfigFileContent(
      ts.parseConfigFileTextToJson('tsconfig.json', tsconfigText).config,
      ts.sys,
      ROOT,
    );
    compilerOptions = {
      ...parsed.options,
      sourceMap: false,
      inlineSourceMap: true,
      inlineSources: false,
      declaration: false,
    };
  }
  return { ts, compilerOptions };
}

function transpile(source, filename) {
  const key = crypto
    .createHash('sha256')
    .update(salt)
    .update(filename)
    .update('\0')
    .update(source)
    .digest('hex');
  const cached = path.join(CACHE, key.slice(0, 2), `${key}.js`);
  try {
    return fs.readFileSync(cached, 'utf8');
  } catch {
    // Not cached yet.
  }
  const { ts, compilerOptions: options } = transpiler();
  const output = ts.transpileModule(source, { compilerOptions: options, fileName: filename }).outputText;
  // Written aside, then renamed: a parallel start never reads half a file.
  const temporary = `${cached}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(path.dirname(cached), { recursive: true });
    fs.writeFileSync(temporary, output);
    fs.renameSync(temporary, cached);
  } catch {
    // A read-only tree: run without the cache.
  }
  return output;
}

require.extensions['.ts'] = function compileTypeScript(module, filename) {
  const source = fs.readFileSync(filename, 'utf8');
  module._compile(transpile(source, filename), filename);
};
