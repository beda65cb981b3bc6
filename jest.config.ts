import type { Config } from 'jest';
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The legs of the e2e suite (README "Tests"). Every e2e file runs in both legs (`npm test`: SQLite + fs;
 * `npm run test:mysql`: MariaDB + S3) unless it is named in one of these lists.
 *
 * MYSQL_ONLY: files that always need a MariaDB server, whatever the matrix (a proxy cut or frozen in front
 * of it, two instances on one server, a read replica). They run in the MariaDB leg only, so `npm test`
 * needs no service.
 */
const MYSQL_ONLY = [
  'faults',
  'two-instances',
  'job-runs-instances',
  'search-read-replica',
  'health-database-hang',
  'rendition-workers',
];

/**
 * MATRIX_INDEPENDENT: files whose subject does not depend on the matrix's database or store: HTTP
 * semantics, body limits, the trusted origin, the CLI's parsing and exit codes, storage adapters and
 * stored files that pick their own store, the OpenAPI document, SQLite's planner statistics, the ZIP
 * writer. They run in the SQLite leg only.
 */
const MATRIX_INDEPENDENT = [
  'http-semantics',
  'cors',
  'root',
  'cli',
  'cli-admin',
  'openapi',
  'storage-contract',
  'files',
  'sqlite-planner-statistics',
  // Bodies bounded before any DTO work, and the Host check before any routing: the HTTP layer's.
  'request-limits',
  'request-refusals',
  'trusted-origin',
  // The shares' ZIP writer on sources in memory.
  'zip-stream',
  // XML negotiation and serialisation of what the repositories return; the replayed clients' subject.
  'xml-clients',
  // ffmpeg and the PDF renderer as child processes on a local copy of the source (ImageInputs makes it from
  // either store; asset-renditions covers that step, and the renditions' storage, on both legs).
  'previews',
  'video-facts',
  // The CLI's upload client resuming chunks through a proxy; the server side is asset-content-chunked's.
  'upload-client',
];

for (const name of [...MYSQL_ONLY, ...MATRIX_INDEPENDENT]) {
  // A renamed file would otherwise run in both legs again, or in none, without a word.
  if (!fs.existsSync(path.join('test', `${name}.e2e-spec.ts`))) {
    throw new Error(`jest.config.ts names test/${name}.e2e-spec.ts, which does not exist`);
  }
}

/** The e2e files this leg leaves to the other (DAM_TEST_MATRIX, as test/helpers/databases.ts reads it). */
const leftToTheOtherLeg = process.env.DAM_TEST_MATRIX === 'mysql' ? MATRIX_INDEPENDENT : MYSQL_ONLY;

const shared = {
  // One vm context per worker and project, so that packages load once per worker: see the two files.
  testEnvironment: '<rootDir>/test/jest/shared-context-environment.js',
  moduleNameMapper: { '^@dam/([a-z0-9-]+)$': '<rootDir>/libs/$1/src' },
  // swc strips the types as tsconfig.json compiles (ES2022, CommonJS, legacy decorators with their design
  // metadata, which Nest's injection and TypeORM's columns read; class fields defined as tsc defines them at
  // ES2022). It transpiles each file alone, as ts-jest did with isolatedModules, about twelve times faster:
  // on a clean clone every worker compiles the ~600 files of apps/ and libs/ once. Types are checked by
  // `npm run typecheck`, not by the tests.
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          target: 'es2022',
          transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: true },
        },
        module: { type: 'commonjs' },
        sourceMaps: 'inline',
      },
    ],
  },
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json', 'node'],
  // Jest's runtime with each module's compiled code kept between the files of a worker, and node_modules
  // loaded once per worker: see the file.
  runtime: '<rootDir>/test/jest/shared-modules-runtime.js',
};

// testTimeout and slowTestThreshold are global options: Jest ignores them inside `projects`.
const config: Config = {
  testTimeout: 120_000,
  // Each e2e file has its own database and port, so files run side by side (Jest's default is cores - 1).
  maxWorkers: 2,
  // No workerIdleMemoryLimit: what a file leaves on the shared global goes when the next file starts
  // (test/jest/shared-context-environment.js), so a worker needs no restart for its memory.
  // A worker told to end is past its 'exit' event within ~40 ms, but on a loaded machine the process itself
  // was gone 0.17-1.4 s later (measured from outside, with the legs and two busy loops on the two cores),
  // past Jest's default 500 ms: Jest then killed it and warned that a worker failed to exit gracefully,
  // though no handle was open. 10 s is the grace before that kill.
  workerGracefulExitTimeout: 10_000,
  // The slowest files first, also on a clean clone without Jest's cache: see the file.
  testSequencer: '<rootDir>/test/jest/duration-sequencer.js',
  slowTestThreshold: 30,
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: ['<rootDir>/libs/**/*.spec.ts', '<rootDir>/apps/**/*.spec.ts'],
    },
    {
      ...shared,
      displayName: 'e2e',
      // examples/*: the worked extension modules (docs/extending.md) boot with the app in their own specs.
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts', '<rootDir>/examples/*/test/**/*.e2e-spec.ts'],
      testPathIgnorePatterns: [
        '/node_modules/',
        `<rootDir>/test/(${leftToTheOtherLeg.join('|')})\\.e2e-spec\\.ts$`,
      ],
    },
  ],
};

export default config;
