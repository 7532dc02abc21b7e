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
  'chokidar',
  'busboy',
  'commander',
  'music-metadata',
  'file-type',
  'tsx',
  'cli-progress',
  'ipaddr.js',
];

/** The layering of ARCHITECTURE.md, checked here rather than trusted. */
const layer = (files, patterns, paths = []) => ({
  files,
  rules: {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        paths: paths.map((name) => ({
          name,
          message: 'This layer may not import this module (ARCHITECTURE.md).',
        })),
        patterns: patterns.map((group) => ({
          group: [group],
          message: 'This layer may not import from there (ARCHITECTURE.md).',
        })),
      },
    ],
  },
});

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'release/', 'coverage/', 'test/.tmp/'] },
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
  // renderer: only renderer/ and shared/; no Node, no Electron.
  layer(
    ['renderer/**'],
    ['**/electron/**', '**/test/**'],
    ['electron', ...nodeBuiltins, ...nodeOnlyPackages],
  ),
  // shared: pure TypeScript for both sides.
  layer(
    ['shared/**'],
    ['**/electron/**', '**/renderer/**', '**/test/**'],
    ['electron', ...nodeBuiltins, ...nodeOnlyPackages],
  ),
  // engine, cli and sandbox run without Electron.
  layer(
    ['electron/engine/**', 'electron/cli/**', 'electron/sandbox/**'],
    ['**/renderer/**', '**/electron/main/**', 'electron/*'],
    ['electron'],
  ),
  // the sandbox is the service, not a client: it never borrows the engine's code.
  layer(['electron/sandbox/**'], ['**/engine/**', '**/renderer/**', '**/electron/main/**'], ['electron']),
  layer(['electron/main/**'], ['**/renderer/**', '**/sandbox/**']),
);
