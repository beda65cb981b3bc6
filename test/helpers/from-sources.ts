import * as path from 'node:path';

/**
 * `node` arguments that run a TypeScript entry point of this repository from its sources (nothing built):
 * `node ...FROM_SOURCES, 'apps/api/src/main.ts'`. Transpiled as ts-node's transpile-only mode does, but
 * cached on disk between processes (test/helpers/ts-transpile-cache.js), so only the first child after a
 * change pays for TypeScript.
 */
export const FROM_SOURCES: readonly string[] = ['-r', path.join(__dirname, 'ts-transpile-cache.js')];
