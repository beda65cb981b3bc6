/* global require, module */
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS file Jest loads as it is */
// Jest transform for the few ES-module-only packages the app loads (@tus/*, srvx): ts-jest runs the app as
// CommonJS, and Jest cannot require() untransformed ESM. TypeScript rewrites their import/export syntax
// to require()/exports, the same way ts-jest compiles our own files; nothing else changes. The built
// service needs none of this: Node 20.19+ require()s these packages as they are.
const { createHash } = require('node:crypto');
const ts = require('typescript');

const OPTIONS = {
  module: ts.ModuleKind.CommonJS,
  target: ts.ScriptTarget.ES2022,
  allowJs: true,
  esModuleInterop: true,
  inlineSourceMap: true,
};

module.exports = {
  process(sourceText, sourcePath) {
    // `.mjs` would be kept ESM by TypeScript: present it as plain `.js`.
    const fileName = sourcePath.replace(/\.mjs$/, '.js');
    return { code: ts.transpileModule(sourceText, { fileName, compilerOptions: OPTIONS }).outputText };
  },
  getCacheKey(sourceText, sourcePath) {
    return createHash('sha1').update(`${ts.version}\0${sourcePath}\0${sourceText}`).digest('hex');
  },
};
