#!/usr/bin/env node
// Runs the benchmarks one after another (or those named as arguments), each writing bench/results/<name>.md.
// The asset-search benchmark seeds 1,000,000 assets (about 11 minutes here): name it explicitly to run it.
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const DEFAULT = ['access-level-search', 'asset-content-upload'];
const ALL = [...DEFAULT, 'asset-search'];
const names = process.argv.length > 2 ? process.argv.slice(2) : DEFAULT;

for (const name of names) {
  if (!ALL.includes(name)) {
    console.error(`unknown benchmark ${name}; known: ${ALL.join(', ')}`);
    process.exit(2);
  }
  console.log(`\n== bench ${name}`);
  const result = spawnSync(
    process.execPath,
    [
      require.resolve('ts-node/dist/bin.js'),
      '-r',
      'tsconfig-paths/register',
      '--transpile-only',
      path.join(__dirname, `${name}.bench.ts`),
    ],
    { stdio: 'inherit', cwd: path.join(__dirname, '..') },
  );
  if (result.status !== 0) process.exit(result.status ?? 1);
}
