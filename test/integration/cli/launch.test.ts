import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BUNDLE, chooseEntry } from '../../../electron/cli/launch.mjs';
import { CLI } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CHECK = join(ROOT, 'scripts', 'check-node.mjs');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string };
  scripts: Record<string, string>;
};

/** Runs a script on this Node, told by a preload that it is another version. */
async function onNode(version: string, script: string, args: string[] = []) {
  const fake = `data:text/javascript,Object.defineProperty(process.versions,'node',{value:'${version}'})`;
  return run(process.execPath, ['--import', fake, script, ...args]).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => ({
      code: e.code,
      stdout: e.stdout,
      stderr: e.stderr,
    }),
  );
}

describe('a Node.js too old for Dubdesk', () => {
  it.each(['20.11.1', '22.21.9', '18.0.0', '8.17.0'])(
    'on Node %s the CLI says what to install instead of crashing (exit 2)',
    async (version) => {
      const r = await onNode(version, CLI, ['--help']);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        `Dubdesk needs Node.js 22.22 or newer; this is Node.js ${version}.\n` +
          'Install Node.js 22 LTS (https://nodejs.org/, or `nvm install` in this folder: .nvmrc names it),\n' +
          'then run `npm install` again (in this folder).\n',
      );
    },
  );

  it('npm test checks it before anything else, with the same words', async () => {
    expect(pkg.scripts.test).toMatch(/^node scripts\/check-node\.mjs && /);
    const old = await onNode('20.11.1', CHECK);
    expect(old.code).toBe(1);
    expect(old.stderr).toContain('Dubdesk needs Node.js 22.22 or newer; this is Node.js 20.11.1.');
    expect(await onNode('22.22.0', CHECK)).toMatchObject({ code: 0, stderr: '' });
    expect(await onNode('24.1.0', CHECK)).toMatchObject({ code: 0, stderr: '' });
  });

  it('asks for the version package.json asks for', () => {
    expect(pkg.engines.node).toBe('>=22.22');
    expect(readFileSync(join(ROOT, '.nvmrc'), 'utf8').trim()).toBe('22.22');
  });
});

describe('the compiled CLI', () => {
  /** A tree shaped like the repository: sources, package.json and (perhaps) the bundle, at given ages. */
  function tree(ages: Record<string, number>): string {
    const root = tempDir('dubdesk-launch-');
    const now = Date.now() / 1000;
    for (const [file, age] of Object.entries(ages)) {
      const path = join(root, file);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, '');
      utimesSync(path, now - age, now - age);
    }
    return root;
  }

  it('is used while no source is newer; the TypeScript sources run otherwise', () => {
    const sources = { 'package.json': 60, 'electron/cli/main.ts': 50, 'shared/deep/a/b.ts': 40 };
    expect(chooseEntry(tree({ ...sources, [BUNDLE]: 30 }))).toBe('bundle');
    expect(chooseEntry(tree({ ...sources, [BUNDLE]: 40 }))).toBe('bundle');
    expect(chooseEntry(tree(sources))).toBe('source');
    expect(chooseEntry(tree({ ...sources, [BUNDLE]: 45 }))).toBe('source');
    expect(chooseEntry(tree({ ...sources, 'electron/engine/new.ts': 1, [BUNDLE]: 30 }))).toBe('source');
    expect(chooseEntry(tree({ ...sources, 'package.json': 1, [BUNDLE]: 30 }))).toBe('source');
  });

  it("keeps V8's compiled code in the user's cache folder, never the repository, and runs where it cannot", async () => {
    const cache = tempDir('dubdesk-cache-');
    const home = tempDir();
    const env = { ...process.env, XDG_CACHE_HOME: cache, NODE_COMPILE_CACHE: '' };
    const first = await run(process.execPath, [CLI, '--home', home, 'status'], { env });
    expect(first.stdout).toContain('The queue is empty.');
    const kept = readdirSync(join(cache, 'dubdesk', 'compile'), { recursive: true });
    expect(kept.length).toBeGreaterThan(1);
    expect(readdirSync(ROOT)).not.toContain('node-compile-cache');
    // A cache folder that cannot be made (a file in its place): the command runs as ever, and says nothing of it.
    const blocked = join(tempDir('dubdesk-cache-'), 'file');
    writeFileSync(blocked, '');
    const r = await run(process.execPath, [CLI, '--home', home, 'status'], {
      env: { ...env, XDG_CACHE_HOME: blocked },
    });
    expect(r.stdout).toContain('The queue is empty.');
    expect(r.stderr).toBe('');
  });

  it('builds to one entry plus chunks that run anywhere in the repository, native modules left outside', async () => {
    const out = join(ROOT, 'test', '.tmp', `cli-bundle-${process.pid}`);
    try {
      await run(process.execPath, [join(ROOT, 'scripts', 'build-cli.mjs'), out]);
      const entry = join(out, 'dubdesk.mjs');
      expect((await run(process.execPath, [entry, '--version'])).stdout).toBe(`0.1.0\n`);
      const help = await run(process.execPath, [entry, '--help']);
      expect(help.stdout).toMatch(/^Usage: dubdesk \[options\] \[command\]/);
      const status = await run(process.execPath, [entry, '--home', tempDir(), 'status']);
      expect(status.stdout).toContain('The queue is empty.');
      const chunks = readdirSync(join(out, 'chunks')).map((f) =>
        readFileSync(join(out, 'chunks', f), 'utf8'),
      );
      for (const text of [readFileSync(entry, 'utf8'), ...chunks]) {
        expect(text).not.toContain('better_sqlite3.node');
        expect(text).not.toMatch(/keyring\.[a-z0-9-]+\.node/);
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
