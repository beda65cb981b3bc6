#!/usr/bin/env node
// `npm run bench`: the overview (bench/overview.bench.ts, about 5 minutes), which prints its table and
// writes bench/results/latest.md. `npm run bench -- <name> ...` runs the named benchmarks one after another
// instead, each writing bench/results/<name>.md; asset-search seeds 1,000,000 assets (about 11 minutes
// here) and is never run unless named. `--mysql` runs on MySQL/MariaDB + S3 (as DAM_TEST_MATRIX=mysql).
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const DEFAULT = ['overview'];
const ALL = [
  ...DEFAULT,
  'access-level-search',
  'asset-content-upload',
  'asset-search',
  'import',
  'audit',
  'oidc-token',
  'shares',
  'token-flood',
  'read-allocation',
  'previews',
];
const args = process.argv.slice(2);
const env = args.includes('--mysql') ? { ...process.env, DAM_TEST_MATRIX: 'mysql' } : process.env;
const named = args.filter((arg) => arg !== '--mysql');
const names = named.length > 0 ? named : DEFAULT;

for (const name of names) {
  if (!ALL.includes(name)) {
    console.error(`unknown benchmark ${name}; known: ${ALL.join(', ')}`);
    process.exit(2);
  }
  console.log(`\n== bench ${name}${env.DAM_TEST_MATRIX === 'mysql' ? ' (mysql)' : ''}`);
  const result = spawnSync(
    process.execPath,
    [
      require.resolve('ts-node/dist/bin.js'),
      '-r',
      'tsconfig-paths/register',
      '--transpile-only',
      path.join(__dirname, `${name}.bench.ts`),
    ],
    { stdio: 'inherit', cwd: path.join(__dirname, '..'), env },
  );
  if (result.status !== 0) process.exit(result.status ?? 1);
}
