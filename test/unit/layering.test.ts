import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: root });

async function violations(file: string, from: string): Promise<string[]> {
  const code = `import * as x from '${from}';\nexport const a = x;\n`;
  const [result] = await eslint.lintText(code, { filePath: `${root}${file}` });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports')
    .map((m) => m.message);
}
/** The messages of `no-restricted-syntax` for `code` linted as if it were `file`. */
async function syntaxViolations(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\n`, { filePath: `${root}${file}` });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
}
const bites = async (file: string, from: string) =>
  expect(await violations(file, from), `${file} <- ${from}`).toHaveLength(1);
const allows = async (file: string, from: string) =>
  expect(await violations(file, from), `${file} <- ${from}`).toEqual([]);

describe('the layering lint rules', () => {
  it('keep Node and Electron out of the renderer and shared/', async () => {
    await bites('renderer/src/x.ts', 'node:fs');
    await bites('renderer/src/x.ts', '../../electron/engine/index');
    await bites('renderer/src/x.ts', 'got');
    await bites('shared/x.ts', 'electron');
    await bites('shared/x.ts', 'better-sqlite3');
    await allows('renderer/src/x.ts', '../../shared/languages');
  });

  it('keep the electron module out of the engine, the CLI and the sandbox', async () => {
    for (const file of [
      'electron/engine/app/x.ts',
      'electron/engine/app/queue/x.ts',
      'electron/engine/x.ts',
      'electron/web/x.ts',
      'electron/cli/x.ts',
      'electron/sandbox/x.ts',
    ])
      await bites(file, 'electron');
    await allows('electron/main/x.ts', 'electron');
  });

  it('let the faces reach the engine through its entry file alone', async () => {
    for (const face of [
      'electron/cli/x.ts',
      'electron/cli/commands/x.ts',
      'electron/main/x.ts',
      'electron/web/x.ts',
    ]) {
      const up = face.split('/').length === 3 ? '..' : '../..';
      await allows(face, `${up}/engine/index`);
      await bites(face, `${up}/engine/app/root`);
      await bites(face, `${up}/engine/api/errors`);
      await bites(face, `${up}/engine/db/jobs`);
      // No second way in: what the desktop's main process shares without the engine lies outside it.
      await bites(face, `${up}/engine/served-file`);
      await bites(face, `${up}/engine/files/own-file`);
      await allows(face, `${up}/file-safety/served-file`);
    }
  });

  it('keep the file rules the engine and the faces share below both, free of either', async () => {
    await allows('electron/engine/files/x.ts', '../../file-safety/foreign-link');
    await allows('electron/file-safety/x.ts', 'node:fs/promises');
    await allows('electron/file-safety/x.ts', '../../shared/contract/errors');
    for (const above of ['../engine/index', '../engine/files/own-file', '../main/x', '../web/x', '../cli/x'])
      await bites('electron/file-safety/x.ts', above);
    await bites('electron/file-safety/x.ts', 'electron');
    await bites('electron/sandbox/x.ts', '../file-safety/served-file');
  });

  it('keep lower engine folders from importing higher ones', async () => {
    await bites('electron/engine/api/x.ts', '../db/jobs');
    await bites('electron/engine/api/x.ts', '../flows/submit');
    await bites('electron/engine/db/x.ts', '../jobs/life');
    await bites('electron/engine/jobs/x.ts', '../flows/context');
    await bites('electron/engine/flows/x.ts', '../runner/runner');
    await bites('electron/engine/runner/x.ts', '../app/root');
    await bites('electron/engine/app/x.ts', '../index');
    await bites('electron/engine/app/queue/x.ts', '../../index');
    await bites('electron/engine/keys/x.ts', '../app/dubbing-service');
    await bites('electron/engine/log/x.ts', '../app/root');
    await bites('electron/engine/home/x.ts', '../keys/key-store');
    await allows('electron/engine/keys/x.ts', '../home/home');
    await allows('electron/engine/app/x.ts', '../keys/os-key-store');
    await allows('electron/engine/app/queue/x.ts', '../../runner/runner');
    await allows('electron/engine/flows/x.ts', '../jobs/life');
    await allows('electron/engine/runner/x.ts', '../flows/submit');
    await allows('electron/engine/app/x.ts', '../runner/runner');
  });

  it('put the folder watcher between the runner and the application layer', async () => {
    await bites('electron/engine/watcher/x.ts', '../app/batches/plan');
    await bites('electron/engine/watcher/x.ts', '../index');
    await bites('electron/engine/runner/x.ts', '../watcher/watcher-loop');
    await bites('electron/engine/db/x.ts', '../watcher/env');
    await bites('electron/engine/watcher/x.ts', '../../sandbox/server');
    await allows('electron/engine/watcher/x.ts', '../db/watch');
    await allows('electron/engine/watcher/x.ts', '../jobs/life');
    await allows('electron/engine/watcher/x.ts', '../runner/backoff');
    await allows('electron/engine/watcher/x.ts', '../media/probe');
    await allows('electron/engine/app/x.ts', '../watcher/watcher-loop');
    await allows('electron/engine/watcher/x.ts', '@parcel/watcher');
    await bites('shared/x.ts', '@parcel/watcher');
  });

  it('keep the web face its own: the CLI starts it through its entry, nobody else reaches in', async () => {
    await allows('electron/cli/commands/x.ts', '../../web/index');
    await bites('electron/cli/commands/x.ts', '../../web/server');
    await bites('electron/web/x.ts', '../cli/context');
    await bites('electron/web/x.ts', '../main/ipc');
    await bites('electron/main/x.ts', '../web/index');
    await bites('electron/engine/app/x.ts', '../../web/index');
    await bites('electron/sandbox/x.ts', '../web/index');
    await allows('electron/web/x.ts', 'fastify');
  });

  it('keep the engine and the sandbox apart', async () => {
    await bites('electron/engine/app/x.ts', '../../sandbox/server');
    await bites('electron/engine/x.ts', '../sandbox/server');
    await bites('electron/sandbox/x.ts', '../engine/index');
    await bites('electron/sandbox/routes/x.ts', '../../engine/api/errors');
    await allows('electron/sandbox/x.ts', '../../shared/credits');
  });

  it('keep the database connection, every statement and every transaction in engine/db', async () => {
    for (const file of [
      'electron/engine/flows/x.ts',
      'electron/engine/app/x.ts',
      'electron/engine/watcher/x.ts',
    ]) {
      await bites(file, file.split('/').length === 4 ? '../db/open' : '../../db/open');
      await bites(file, '../db/transactions');
      await bites(file, 'better-sqlite3');
      await allows(file, '../db/jobs');
    }
    await allows('electron/engine/db/x.ts', './open');
    await allows('electron/engine/db/job-store/x.ts', 'better-sqlite3');
    const sql = [
      "export const a = (db: { prepare(s: string): unknown }) => db.prepare('SELECT 1');",
      "export const b = (db: { exec(s: string): unknown }) => db.exec('DELETE FROM jobs');",
      'export const c = (db: { transaction(f: () => void): unknown }) => db.transaction(() => {});',
      "export const d = (db: { pragma(s: string): unknown }) => db.pragma('data_version');",
      "export const e = /x/.exec('x');",
    ].join('\n');
    for (const file of [
      'electron/engine/flows/x.ts',
      'electron/engine/app/queue/x.ts',
      'electron/engine/x.ts',
    ])
      expect(await syntaxViolations(file, sql), file).toHaveLength(5);
    expect(await syntaxViolations('electron/engine/db/x.ts', sql)).toEqual([]);
    expect(await syntaxViolations('electron/engine/flows/x.ts', "export const m = 'x'.match(/x/);")).toEqual(
      [],
    );
    // In db/, a transaction still runs IMMEDIATE.
    const deferred =
      'export const f = (db: { transaction(f: () => void): () => void }) => db.transaction(() => {})();';
    expect(await syntaxViolations('electron/engine/db/x.ts', deferred)).toHaveLength(1);
  });
});
