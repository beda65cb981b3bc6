import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import tseslint from 'typescript-eslint';

/**
 * Module boundaries (docs/architecture.md: "Three rules", "Floors and owners").
 *
 * Floors, lowest first: a lib may import libs of LOWER floors only (never the same floor, except
 * itself); apps may import any lib; libs never import apps. Test files (test/**, *.spec.ts) are exempt
 * from the floor rule, not from the barrel rule.
 *
 *   boundaries/dependencies   (b) floors
 *   barrels/dependencies      (a) another lib only through '@dam/<lib>', resolving to its src/index.ts;
 *                             (c) never another lib's entities/ or *.repository.ts file; (d) tests too
 *   no-restricted-imports     (a) no '@dam/<lib>/...' deep imports (unresolvable with the tsconfig alias);
 *                             (c) no name ending in Entity/Repository from another lib's barrel
 */
const FLOORS = [
  // the rooms of the platform (docs/architecture.md, "Floors and owners"), lowest first:
  ['errors', 'core'], // the error model; configuration, request context, tree walks, search tokens
  ['database', 'events', 'rate-limits'], // data source, deadlines, caches, settings; the outbox; counters
  ['jobs'],
  ['observability'], // logs, metrics (it watches the job runs)
  ['http'], // HTTP conventions: the error filter, negotiation, ETags, URLs, parsers
  ['storage', 'i18n'],
  // the areas:
  ['access'],
  ['access-levels', 'categories', 'attributes', 'signed-urls', 'temp-chunked-files', 'maintenance', 'webhooks'],
  ['assets'],
  ['asset-content', 'search', 'checkout', 'lightboxes', 'audit'],
  ['publishing', 'tus', 'shares'],
  // the schema's history (the one named exception to "one owner per table": it names every lib's
  // tables, and fills new tables through their owner, e.g. assets' recounts), then the wiring for the apps:
  ['migrations'],
  ['platform'],
];
const LIBS = FLOORS.flat();
const TEST_FILES = ['test/**/*.ts', '**/*.spec.ts'];

const lib = (names) => ({ element: { type: 'lib', captured: { lib: names } } });

/**
 * `boundaries/dependencies`: the floor rule (b). Default disallow; a policy per floor allows the floors
 * below it. Only dependencies between different elements (libs/<name>, apps/<name>, test) are checked.
 */
const floorPolicies = [
  ...FLOORS.slice(1).map((names, i) => ({
    from: lib(names),
    allow: { to: lib(FLOORS.slice(0, i + 1).flat()) },
  })),
  // apps sit on top: any lib, and each other (apps/cli loads apps/api's register-paths).
  { from: { element: { type: 'app' } }, allow: { to: { element: { types: ['lib', 'app'] } } } },
  // test files: any lib (barrel only, see below); the e2e suite may also reach into apps.
  { from: { file: { categories: 'test' } }, allow: { to: { element: { type: 'lib' } } } },
  { from: { element: { type: 'e2e' } }, allow: { to: { element: { type: 'app' } } } },
];

/**
 * `barrels/dependencies` (same plugin under a second name, so that its reports are told apart from
 * the floor rule's): rules (a), (c) and (d). Default allow; the last matching policy wins.
 */
const barrelPolicies = [
  {
    to: { element: { type: 'lib', fileInternalPath: '!src/index.ts' } },
    disallow: { to: { element: { type: 'lib' } } },
    message:
      "'{{dependency.source}}' reaches into lib '{{to.element.captured.lib}}' ({{to.element.fileInternalPath}}): import it through its barrel '@dam/{{to.element.captured.lib}}'",
  },
  {
    to: { element: { type: 'lib' } },
    disallow: { dependency: { source: '!@dam/*' } },
    message:
      "'{{dependency.source}}' reaches lib '{{to.element.captured.lib}}' by a file path: import it as '@dam/{{to.element.captured.lib}}'",
  },
  {
    to: { element: { type: 'lib' }, file: { categories: ['entity', 'repository'] } },
    disallow: { to: { element: { type: 'lib' } } },
    message:
      "'{{dependency.source}}' is an entity/repository owned by lib '{{to.element.captured.lib}}': use that lib's services instead",
  },
];

/** no-restricted-imports patterns shared by every file; `ownLib` is excluded from the name rule. */
const restrictedImportPatterns = (ownLib) => [
  {
    regex: '^@dam/[^/]+/',
    message: "Import another lib only through its barrel '@dam/<lib>', never a path inside it.",
  },
  {
    regex: ownLib ? `^@dam/(?!${ownLib}$)[^/]+$` : '^@dam/[^/]+$',
    importNamePattern: '(Entity|Repository)$',
    message:
      'Entities and repositories belong to the lib that owns them: use its services, not its persistence.',
  },
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'bench/**', '*.mjs', 'jest.config.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: TEST_FILES,
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    // Plain CommonJS that Jest loads itself, untransformed (test/jest/: its environment, runtime, sequencer).
    files: ['test/jest/**/*.js'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', process: 'readonly', __dirname: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },

  // ---- module boundaries ----
  {
    files: ['{apps,libs,test}/**/*.ts'],
    plugins: { boundaries, barrels: boundaries },
    settings: {
      'import/resolver': { typescript: { project: `${import.meta.dirname}/tsconfig.json` } },
      'boundaries/root-path': import.meta.dirname,
      'boundaries/include': ['apps/**/*.ts', 'libs/**/*.ts', 'test/**/*.ts'],
      'boundaries/elements': [
        { type: 'lib', pattern: 'libs/*', capture: ['lib'], partialMatch: false },
        { type: 'app', pattern: 'apps/*', capture: ['app'], partialMatch: false },
        { type: 'e2e', pattern: 'test', partialMatch: false },
      ],
      'boundaries/files': [
        { category: 'test', pattern: ['test/**', '**/*.spec.ts'] },
        { category: 'entity', pattern: ['**/entities/**', '**/*.entity.ts'] },
        { category: 'repository', pattern: '**/*.repository.ts' },
      ],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          message:
            "{{from.element.type}} '{{from.element.captured.lib}}{{from.element.captured.app}}' may not import {{to.element.type}} '{{to.element.captured.lib}}{{to.element.captured.app}}': a lib imports only libs of lower floors (see FLOORS in eslint.config.mjs), libs never import apps",
          policies: floorPolicies,
        },
      ],
      'barrels/dependencies': ['error', { default: 'allow', policies: barrelPolicies }],
      'no-restricted-imports': ['error', { patterns: restrictedImportPatterns(null) }],
    },
  },
  ...LIBS.map((name) => ({
    files: [`libs/${name}/**/*.ts`],
    rules: { 'no-restricted-imports': ['error', { patterns: restrictedImportPatterns(name) }] },
  })),
);
