// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];
/** Packages that only run in Node: the renderer and shared/ never load them. */
const nodeOnlyPackages = [
  'better-sqlite3',
  'got',
  '@parcel/watcher',
  'busboy',
  'commander',
  'music-metadata',
  'file-type',
  'tsx',
  'ipaddr.js',
  'pino',
  'log-update',
  'cli-truncate',
  'read',
  'fastify',
  '@fastify/static',
  'open',
  'range-parser',
];

/**
 * One entry per layer of docs/architecture.md, checked here rather than trusted. Flat config replaces a rule's
 * options when two entries match a file, so every file falls in exactly one layer below.
 */
const layer = (files, patterns, paths = [], ignores = []) => ({
  files,
  ignores,
  rules: {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        paths: paths.map((name) => ({
          name,
          message: 'This layer may not import this module (docs/architecture.md).',
        })),
        patterns: patterns.map(({ group, message }) => ({ group, message })),
      },
    ],
  },
});

const no = (message, ...group) => ({ group, message });
const notRenderer = no('Only the renderer imports the renderer.', '**/renderer/**');
const notTests = no('Product code never imports tests.', '**/test/**');
/** Faces (CLI, desktop shell, serve) reach the engine through its entry file alone: the contract. */
const engineEntryOnly = no(
  "Faces import only the engine's entry (electron/engine/index.ts): the contract, nothing else.",
  '**/engine/*',
  '**/engine/*/**',
  '!**/engine/index',
  '!**/engine/index.ts',
);
const noEngine = no(
  'The sandbox is the service, not a client: it never borrows the engine’s code (share through shared/).',
  '**/engine/**',
  '**/file-safety/**',
);
const noSandbox = no(
  'The engine never imports the sandbox (share through shared/; faces start it).',
  '**/sandbox/**',
);
const noFaces = no(
  'The engine knows no face (CLI, desktop shell, web).',
  '**/cli/**',
  '**/main/**',
  '**/web/**',
);
/** The CLI starts the browser face (`dubdesk serve`) through that face's entry file alone. */
const webEntryOnly = no(
  'The CLI reaches the web face through its entry (electron/web/index.ts) alone.',
  '**/web/*',
  '**/web/*/**',
  '!**/web/index',
  '!**/web/index.ts',
);

/**
 * Inside the engine, lower folders never import higher ones: api <- db <- jobs <- flows <- runner <- watcher
 * <- app. The watcher queues jobs through their life and the database, above the runner that works them; what it
 * needs of the application layer (planning a batch, the balance, events) is handed to it, never imported.
 * The data folder (home), the key store (keys) and the log sit at the bottom beside the database; below all,
 * `files` holds what every level does with the file system (making a folder that may be anywhere).
 */
const ENGINE_LEVELS = [
  ['files'],
  ['api', 'media', 'outputs', 'home'],
  ['db', 'keys', 'log'],
  ['jobs'],
  ['flows'],
  ['runner'],
  ['watcher'],
  ['app'],
  // `dubdesk doctor` and Copy Diagnostics: looks at what the application layer opens, before and without it.
  ['doctor'],
];
/**
 * The queue database's connection stays in `db/`: every statement and every write transaction is a store's
 * (one change feed hears every commit), so the modules that hold the connection are db/'s alone.
 */
const dbConnection = no(
  'Only electron/engine/db/ holds the database connection: call a store (docs/architecture.md).',
  '**/db/open',
  '**/db/types',
  '**/db/transactions',
  '**/db/change-marks',
  '**/db/foreign-commits',
);
const engineLayers = ENGINE_LEVELS.flatMap((folders, level) => {
  const higher = ENGINE_LEVELS.slice(level + 1).flat();
  const same = level === 1 ? folders : [];
  return folders.map((folder) =>
    layer(
      [`electron/engine/${folder}/**`],
      [
        notRenderer,
        noSandbox,
        noFaces,
        ...(folder === 'db' ? [] : [dbConnection]),
        ...(higher.length
          ? [
              no(
                `engine/${folder} sits below ${higher.join(', ')}: it may not import them.`,
                ...higher.flatMap((h) => [`../${h}`, `../${h}/**`, `../../${h}`, `../../${h}/**`]),
                '../index',
                '../../index',
              ),
            ]
          : [
              no(
                'The engine entry imports the application layer, not the other way round.',
                '../index',
                '../../index',
              ),
            ]),
        ...(same.filter((s) => s !== folder).length
          ? [
              no(
                `engine/${folder} stands alone at the bottom.`,
                ...same.filter((s) => s !== folder).flatMap((s) => [`../${s}`, `../${s}/**`]),
              ),
            ]
          : []),
      ],
      ['electron', ...(folder === 'db' ? [] : ['better-sqlite3'])],
    ),
  );
});

/** A transaction run deferred: one that reads, then writes after another process wrote, fails at once. */
const immediateOnly = {
  selector: "CallExpression[callee.type='CallExpression'][callee.callee.property.name='transaction']",
  message:
    'Run it with .immediate(): a deferred transaction that reads, then writes after another process wrote, fails with SQLITE_BUSY instead of waiting.',
};
/**
 * A store selector that makes a new array or object on each read (`s.x ?? []`): every read differs from the
 * last, and React renders again for ever (a blank window, React error #185). Keep one constant outside.
 */
const freshSelectorValue = {
  selector: [
    "CallExpression[callee.name='useApp'] > ArrowFunctionExpression > :matches(ArrayExpression, ObjectExpression)",
    "CallExpression[callee.name='useApp'] > ArrowFunctionExpression > CallExpression[callee.property.name=/^(map|filter|slice|concat)$/]",
    "CallExpression[callee.name='useApp'] > ArrowFunctionExpression > :matches(LogicalExpression, ConditionalExpression) > :matches(ArrayExpression, ObjectExpression)",
  ].join(', '),
  message:
    'A new [] or {} on each read loops React for ever: use a constant declared outside the component, or useShallow.',
};
/** SQL outside db/: a statement or a transaction the stores would not know of, and no change feed would hear. */
const sqlInDbOnly = {
  selector:
    "CallExpression[callee.type='MemberExpression'][callee.property.name=/^(prepare|exec|transaction|pragma)$/]",
  message:
    'SQL and transactions live in electron/engine/db/ (one store method per operation; its commits reach the change feed). A regular expression: use string.match(re).',
};

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'release/', 'coverage/', 'test/.tmp/', 'docs/'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    files: ['renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  // renderer: only renderer/ and shared/; no Node, no Electron. Its vite config runs in Node, at build time.
  layer(
    ['renderer/**'],
    [no('The renderer talks to the contract only.', '**/electron/**'), notTests],
    ['electron', ...nodeBuiltins, ...nodeOnlyPackages],
    ['renderer/vite.config.ts'],
  ),
  // shared: pure TypeScript for both sides.
  layer(
    ['shared/**'],
    [no('shared/ is below everything.', '**/electron/**'), notRenderer, notTests],
    ['electron', ...nodeBuiltins, ...nodeOnlyPackages],
  ),
  // faces
  layer(
    ['electron/cli/**'],
    [
      notRenderer,
      notTests,
      engineEntryOnly,
      webEntryOnly,
      no('The CLI is not the desktop shell.', '**/main/**'),
    ],
    ['electron'],
  ),
  layer(
    ['electron/main/**'],
    [
      notRenderer,
      notTests,
      engineEntryOnly,
      no('The desktop shell starts no sandbox of its own making.', '**/sandbox/*/**'),
      no('The desktop shell is not the web face.', '**/web/**', '**/cli/**'),
    ],
  ),
  layer(
    ['electron/web/**'],
    [
      notRenderer,
      notTests,
      engineEntryOnly,
      no('The web face is neither the CLI nor the desktop shell.', '**/cli/**', '**/main/**'),
    ],
    ['electron'],
  ),
  // The file rules the engine and the faces share (what a face may serve, links another user made): below
  // both, so the desktop's main process has them without bundling the engine.
  layer(
    ['electron/file-safety/**'],
    [
      notRenderer,
      notTests,
      no(
        'file-safety/ is below the engine and the faces: it imports neither.',
        '**/engine/**',
        '**/cli/**',
        '**/main/**',
        '**/web/**',
        '**/sandbox/**',
      ),
    ],
    ['electron', ...nodeOnlyPackages],
  ),
  // Finding and running ffmpeg (the one shipped with Dubdesk first): below the engine and the sandbox, which
  // both make media with it, so the built-in sandbox never depends on the shell's PATH.
  layer(
    ['electron/media-tools/**'],
    [
      notRenderer,
      notTests,
      no(
        'media-tools/ is below the engine, the sandbox and the faces: it imports none of them.',
        '**/engine/**',
        '**/sandbox/**',
        '**/cli/**',
        '**/main/**',
        '**/web/**',
        '**/file-safety/**',
      ),
    ],
    ['electron', ...nodeOnlyPackages],
  ),
  // the sandbox
  layer(
    ['electron/sandbox/**'],
    [
      noEngine,
      notRenderer,
      notTests,
      no('The sandbox knows no face.', '**/cli/**', '**/main/**', '**/web/**'),
    ],
    ['electron'],
  ),
  // the engine: its entry file, then each folder at its level
  layer(['electron/engine/*.ts'], [notRenderer, notTests, noSandbox, noFaces], ['electron']),
  ...engineLayers,
  { files: ['electron/engine/db/**/*.ts'], rules: { 'no-restricted-syntax': ['error', immediateOnly] } },
  { files: ['renderer/src/**/*.{ts,tsx}'], rules: { 'no-restricted-syntax': ['error', freshSelectorValue] } },
  {
    files: ['electron/engine/**/*.ts'],
    ignores: ['electron/engine/db/**'],
    rules: { 'no-restricted-syntax': ['error', sqlInDbOnly] },
  },
);
