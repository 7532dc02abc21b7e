/**
 * The project builds and runs from a folder whose path has spaces and accents, as a clone under
 * `C:\Users\First Last\Vidéos` would (issue 30, review item 2: vite's root read with `URL.pathname` became
 * `…/dub%20desk/renderer`, so `npm ci`'s `prepare` could not find index.html). The tracked files are copied
 * to such a folder, beside the project's node_modules, and each build step the README's commands run is run
 * there: the renderer (`prepare`), the CLI bundle, the desktop bundles, `dubdesk --help`, and vitest finding
 * its tests through test/vitest.config.ts.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp-dir';

const root = join(__dirname, '../../..');
const clone = join(tempDir('dubdesk-odd-'), 'Vidéos à doubler', 'dub desk');

function copyTrackedFiles(): void {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0');
  for (const file of files.filter(Boolean)) {
    if (!existsSync(join(root, file))) continue;
    mkdirSync(dirname(join(clone, file)), { recursive: true });
    copyFileSync(join(root, file), join(clone, file));
  }
  symlinkSync(join(root, 'node_modules'), join(clone, 'node_modules'), 'junction');
}

const node = (args: string[]) =>
  spawnSync(process.execPath, args, {
    cwd: clone,
    encoding: 'utf8',
    env: { ...process.env, NODE_ENV: 'production', ELECTRON_SKIP_BINARY_DOWNLOAD: '1' },
  });
const tool = (pkg: string, bin: string) => join(clone, 'node_modules', pkg, bin);

describe('a clone in "Vidéos à doubler/dub desk"', () => {
  beforeAll(copyTrackedFiles);

  it('builds the renderer, as npm ci’s prepare does', () => {
    const r = node([tool('vite', 'bin/vite.js'), 'build', '--config', 'renderer/vite.config.ts']);
    expect(r.stderr + r.stdout).not.toMatch(/UNRESOLVED_ENTRY|Could not resolve/);
    expect(r.status).toBe(0);
    expect(existsSync(join(clone, 'dist', 'renderer', 'index.html'))).toBe(true);
  });

  it('builds the CLI and `dubdesk --help` lists the commands', () => {
    expect(node(['scripts/build-cli.mjs']).status).toBe(0);
    const r = node(['electron/cli/dubdesk.mjs', '--help']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/dub\b[\s\S]*doctor/);
  });

  it('bundles the desktop shell (main, preload, engine)', () => {
    const r = node(['electron/main/build.mjs']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    for (const f of ['main.cjs', 'preload.cjs', 'engine.cjs'])
      expect(existsSync(join(clone, 'dist', 'electron', f)), f).toBe(true);
  });

  it('lets vitest find the tests through test/vitest.config.ts', () => {
    const r = node([
      tool('vitest', 'vitest.mjs'),
      'list',
      '--config',
      'test/vitest.config.ts',
      '--project',
      'unit',
      '--filesOnly',
      'test/unit/naming.test.ts',
    ]);
    expect(r.stderr).not.toMatch(/No test files found/);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('naming.test.ts');
  });
});
