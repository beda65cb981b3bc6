import type { Config } from 'jest';

const shared = {
  preset: 'ts-jest',
  testEnvironment: 'node',
  moduleNameMapper: { '^@dam/([a-z0-9-]+)$': '<rootDir>/libs/$1/src' },
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json' }] },
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json', 'node'],
};

// testTimeout and slowTestThreshold are global options: Jest ignores them inside `projects`.
const config: Config = {
  testTimeout: 120_000,
  // Each e2e file has its own database and port, so files run side by side (Jest's default is cores - 1).
  maxWorkers: 2,
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
    },
  ],
};

export default config;
