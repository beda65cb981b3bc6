'use strict';
/**
 * Jest's node environment, with one vm context per worker and project instead of one per test file
 * (jest.config.ts `testEnvironment`), so that test/jest/shared-modules-runtime.js can load each package in
 * node_modules once per worker and hand the same instance to every file: a module made in one context and
 * used from another would see another realm's Object, Array and Error.
 *
 * What stays per file: fake timers (made afresh, disposed at the end), the console Jest gives it, and
 * everything the file's own runtime loads (the test, its helpers, apps and libs). What is shared: the
 * global object and the mock tracker (Jest restores each file's spies when the file ends, as before).
 * A file that set a global would leave it for the next: none does, and the specs' process.env is the
 * worker's, read-only by convention (AppConfig.fromEnv takes an explicit env).
 *
 * What a file leaves on the shared global goes when the next file starts (`setup`): jest-circus's state
 * and Jest's record of replaced globals would otherwise keep every file's tests and, through their
 * closures, its app (13 MB per e2e file). So no worker needs restarting for its memory (Jest's
 * `workerIdleMemoryLimit` is not set).
 *
 * DAM_JEST_SHARE_MODULES=0 gives every file a context of its own again (Jest's stock behaviour).
 */
const NodeEnvironment = require('jest-environment-node').default;
const { LegacyFakeTimers, ModernFakeTimers } = require('@jest/fake-timers');
const { measureFile } = require('./file-costs');

const SHARING = process.env.DAM_JEST_SHARE_MODULES !== '0';

/** Project config id -> the environment whose context every later file of that project reuses. */
const bases = new Map();

const timerIdToRef = (id) => ({
  id,
  ref() {
    return this;
  },
  unref() {
    return this;
  },
});
const timerRefToId = (timer) => timer?.id;

class SharedContextEnvironment {
  constructor(config, context) {
    const { projectConfig } = config;
    this.measured = measureFile(context.testPath);
    if (!SHARING) return new NodeEnvironment(config, context);
    let base = bases.get(projectConfig.id);
    if (base === undefined) {
      base = { environment: new NodeEnvironment(config, context) };
      base.exit = base.environment.global.process.exit;
      bases.set(projectConfig.id, base);
    }
    /** The environment that owns the context; shared-modules-runtime.js loads node_modules through it. */
    this.base = base.environment;
    this.global = this.base.global;
    this.moduleMocker = this.base.moduleMocker;
    // Jest's runner wraps process.exit once per file; without this the wrappers would nest file by file.
    this.global.process.exit = base.exit;
    this.fakeTimers = new LegacyFakeTimers({
      config: projectConfig,
      global: this.global,
      moduleMocker: this.moduleMocker,
      timerConfig: { idToRef: timerIdToRef, refToId: timerRefToId },
    });
    this.fakeTimersModern = new ModernFakeTimers({ config: projectConfig, global: this.global });
  }

  async setup() {
    // The files before this one are over. Their jest-circus states (each under a Symbol of its own) go, and
    // so do the first file's event handlers (kept under a Symbol.for, they would handle every later file's
    // events with the first file's module, reading its state). Jest's own record of the global's replaced
    // and deleted values (jest-environment-node's GlobalProxy, for its cleanup when a context ends) lets
    // them go too: this context does not end at the file's end, so the record would keep every file's
    // tests and, through their closures, their apps.
    for (const key of Object.getOwnPropertySymbols(this.global)) {
      if (key.description === 'JEST_STATE_SYMBOL' || key === Symbol.for('EVENT_HANDLERS')) {
        delete this.global[key];
      }
    }
    if (Array.isArray(this.base._globalProxy?.leftovers)) this.base._globalProxy.leftovers = [];
  }

  async teardown() {
    this.measured();
    this.fakeTimers?.dispose();
    this.fakeTimersModern?.dispose();
    this.fakeTimers = null;
    this.fakeTimersModern = null;
  }

  exportConditions() {
    return this.base.exportConditions();
  }

  getVmContext() {
    return this.base.getVmContext();
  }
}

module.exports = SharedContextEnvironment;
