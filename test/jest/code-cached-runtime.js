'use strict';
/**
 * Jest's runtime, with what it makes of each module's source kept from one test file to the next in a
 * worker (jest.config.ts `runtime`).
 *
 * Jest gives every test file a fresh module registry, so each e2e file compiles the whole app again: about
 * 2,100 modules (Nest 12 and es-toolkit as ES modules; TypeORM, rxjs and class-validator as CommonJS; our
 * own ~560 files), the largest single share of a file's CPU. The sources are the same in every file, so
 * this runtime keeps, per worker process and keyed by path (checked against the source):
 * - V8's code cache of each CommonJS module (`vm.compileFunction`'s `cachedData`);
 * - V8's code cache of each ES module (`vm.SourceTextModule`'s `cachedData`);
 * - the named exports cjs-module-lexer finds in a CommonJS module that an ES module imports.
 * A code cache skips the parse; V8 checks it (source hash, flags, version) and compiles from the source when
 * it does not fit. Nothing a test can observe changes: each file still gets fresh module instances.
 * DAM_JEST_CACHE_STATS=1 prints each worker's hits and misses at exit.
 */
const vm = require('node:vm');
const lexer = require('cjs-module-lexer');
const Runtime = require('jest-runtime').default;

const stats = { cjsHits: 0, cjsMisses: 0, esmHits: 0, esmMisses: 0, lexHits: 0, lexMisses: 0, rejected: 0 };
if (process.env.DAM_JEST_CACHE_STATS === '1') {
  process.on('exit', () =>
    process.stderr.write(`jest module caches (pid ${process.pid}): ${JSON.stringify(stats)}\n`),
  );
}

/** A cache entry is only good for the very source it was made from. */
function cachedFor(cache, key, source) {
  const known = cache.get(key);
  return known !== undefined && known.source === source ? known.data : undefined;
}

/**
 * V8 rejects every cache once a flag changes (the app's first collection sets `--expose-gc` in the worker,
 * libs/http/src/stream-garbage.ts): all of them are dropped and made again under the new flags.
 */
function rejected() {
  stats.rejected++;
  cjsCodeCache.clear();
  esmCodeCache.clear();
}

/** CommonJS: path -> V8's code cache of the module's wrapper function. */
const cjsCodeCache = new Map();

/** Jest's ModuleExecutor.compile (jest-runtime 30), with `cachedData`. `this` is the executor. */
function compileWithCodeCache(jestCompile, scriptSource, filename) {
  const vmContext = this.environment.getVmContext();
  if (vmContext == null || this.resolution.isCoreModule(filename)) return jestCompile(scriptSource, filename);
  const cachedData = cachedFor(cjsCodeCache, filename, scriptSource);
  let compiled;
  try {
    compiled = vm.compileFunction(scriptSource, this.injectedModuleParameters, {
      filename,
      cachedData,
      produceCachedData: cachedData === undefined,
      importModuleDynamically: (specifier, _function, importAttributes, phase) =>
        this.dynamicImport(specifier, filename, vmContext, importAttributes, phase),
      parsingContext: vmContext,
    });
  } catch {
    // Jest's own compile throws the error it would have (a syntax error with its hints).
    return jestCompile(scriptSource, filename);
  }
  if (cachedData === undefined) {
    stats.cjsMisses++;
    if (compiled.cachedData !== undefined)
      cjsCodeCache.set(filename, { source: scriptSource, data: compiled.cachedData });
  } else if (compiled.cachedDataRejected === true) {
    // Compiled from the source all the same; the next file's compile makes the cache again.
    rejected();
  } else stats.cjsHits++;
  return compiled;
}

/** ES modules: identifier (path) -> V8's code cache. Jest builds them with `new vm.SourceTextModule`. */
const esmCodeCache = new Map();
const JestSourceTextModule = vm.SourceTextModule;

/**
 * Stands in for `vm.SourceTextModule` (a constructor that returns the module it makes, so `new` and
 * `instanceof` behave as before): V8 throws for a rejected cache here, where compileFunction only flags it.
 */
function CodeCachedSourceTextModule(source, options = {}) {
  const key = options.identifier;
  const cachedData =
    key === undefined || options.cachedData !== undefined ? undefined : cachedFor(esmCodeCache, key, source);
  let module;
  let hit = cachedData !== undefined;
  try {
    module = new JestSourceTextModule(source, hit ? { ...options, cachedData } : options);
  } catch (error) {
    if (!hit || !/cachedData/.test(String(error))) throw error;
    rejected();
    hit = false;
    module = new JestSourceTextModule(source, options);
  }
  if (key === undefined) return module;
  if (hit) stats.esmHits++;
  else {
    stats.esmMisses++;
    // Before evaluation, as Node's documentation allows: the cache holds code, no state.
    esmCodeCache.set(key, { source, data: module.createCachedData() });
  }
  return module;
}

if (JestSourceTextModule !== undefined && JestSourceTextModule.codeCached !== true) {
  CodeCachedSourceTextModule.prototype = JestSourceTextModule.prototype;
  CodeCachedSourceTextModule.codeCached = true;
  vm.SourceTextModule = CodeCachedSourceTextModule;
}

/** CommonJS modules imported from ES modules: Jest lexes each for its named exports, in every file. */
const lexed = new Map();
const lex = lexer.parse;
lexer.parse = function parseOnce(source, name) {
  const known = lexed.get(source);
  if (known !== undefined) {
    stats.lexHits++;
    return known;
  }
  stats.lexMisses++;
  const result = lex(source, name);
  lexed.set(source, result);
  return result;
};

class CodeCachedRuntime extends Runtime {
  constructor(...args) {
    super(...args);
    const executor = this.executor;
    if (executor === undefined || typeof executor.compile !== 'function') {
      throw new Error('test/jest/code-cached-runtime.js: jest-runtime has no executor.compile (a new Jest?)');
    }
    executor.compile = compileWithCodeCache.bind(executor, executor.compile.bind(executor));
  }
}

module.exports = CodeCachedRuntime;
