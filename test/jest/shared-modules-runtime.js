'use strict';
/**
 * Jest's runtime (with code-cached-runtime.js's caches), where each package in node_modules is loaded once
 * per worker and project and the same instance goes to every test file (jest.config.ts `runtime`).
 *
 * Jest gives every file a fresh module registry, so each e2e file evaluated the whole app's dependencies
 * again: about 1,600 modules of Nest, TypeORM, rxjs, class-validator, fast-check and the rest, 40% of an
 * e2e file's CPU in a profile even with V8's code cache. The packages are the same for every file and hold
 * no test's state (what they keep lives in the objects the app makes: one Nest app, one DataSource, one
 * metrics Registry per TestApp, several of which already share one file). So a require of a package goes
 * to one long-lived runtime per worker and project (the anchor, never torn down, on the environment whose
 * context test/jest/shared-context-environment.js keeps), and its registry answers every later file.
 *
 * What stays per file, as Jest made it: the test file, its helpers, and apps/ and libs/ (their classes,
 * module state and decorators' metadata are made afresh), core modules, Jest's own, and any module a file
 * mocks. Spies on a package's objects are restored when the file that made them ends (Jest's teardown).
 *
 * DAM_JEST_SHARE_MODULES=0 turns it off (every file loads everything, as Jest does).
 */
const CodeCachedRuntime = require('./code-cached-runtime');

const SHARING = process.env.DAM_JEST_SHARE_MODULES !== '0';

/** Project config id -> the runtime that loads and keeps node_modules for every file of that project. */
const anchors = new Map();

/** Whether `moduleName` (as required from a file outside node_modules) names a package in node_modules. */
function isPackage(moduleName) {
  if (moduleName.startsWith('/')) return moduleName.includes('/node_modules/');
  return !moduleName.startsWith('.') && !moduleName.startsWith('@dam/') && moduleName !== '@jest/globals';
}

class SharedModulesRuntime extends CodeCachedRuntime {
  constructor(config, environment, resolver, transformer, cacheFS, coverageOptions, testPath, globalConfig) {
    super(config, environment, resolver, transformer, cacheFS, coverageOptions, testPath, globalConfig);
    if (!SHARING || environment.base === undefined) return;
    let anchor = anchors.get(config.id);
    if (anchor === undefined) {
      anchor = new CodeCachedRuntime(
        config,
        environment.base,
        resolver,
        transformer,
        cacheFS,
        coverageOptions,
        testPath,
        globalConfig,
      );
      anchors.set(config.id, anchor);
    }
    this.anchor = anchor;
  }

  requireModuleOrMock(from, moduleName) {
    if (
      this.anchor !== undefined &&
      isPackage(moduleName) &&
      !this._resolution.isCoreModule(moduleName) &&
      !this.mockState.shouldMockCjs(from, moduleName).shouldMock
    ) {
      return this.anchor.requireModuleOrMock(from, moduleName);
    }
    return super.requireModuleOrMock(from, moduleName);
  }

  teardown() {
    super.teardown();
    if (this.anchor !== undefined) forgetClassesOfTheFile(this.anchor, this._environment.global);
  }
}

/**
 * Drops what shared packages keep about the classes a test file declared: the decorators' registries of
 * TypeORM (entities, columns), class-validator and class-transformer. A kept class keeps its module, and
 * through its imports the file's whole graph of apps and libs, so the worker's heap would grow by the app
 * for every file (and each full collection would mark it all). The next file's classes register afresh
 * when its modules load; no package registers classes of its own in them.
 */
function forgetClassesOfTheFile(anchor, global) {
  delete global.typeormMetadataArgsStorage;
  delete global.classValidatorMetadataStorage;
  for (const [modulePath, module] of anchor.registries.moduleRegistry) {
    if (modulePath.endsWith('/class-transformer/cjs/storage.js'))
      module.exports.defaultMetadataStorage.clear();
  }
}

module.exports = SharedModulesRuntime;
