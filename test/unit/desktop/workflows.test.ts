/**
 * The GitHub workflows (issue 24.2): every file passes `@action-validator/cli` (GitHub's schema), and the
 * desktop workflow does what the issue asks on the three systems.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { tempDir } from '../../helpers/temp-dir';

const root = join(__dirname, '../../..');
const folder = join(root, '.github', 'workflows');
const files = readdirSync(folder).filter((f) => /\.ya?ml$/.test(f));
const VALIDATOR = join(root, 'node_modules', '@action-validator', 'cli', 'cli.mjs');

const validate = (file: string) =>
  spawnSync(process.execPath, [VALIDATOR, file], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });

interface Step {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}
interface Job {
  'runs-on': string;
  if?: string;
  needs?: string;
  env?: Record<string, string>;
  strategy?: {
    matrix: { os?: string[]; include?: { os: string; args: string; platform: string; archs: string }[] };
  };
  steps: Step[];
}
const workflow = parse(readFileSync(join(folder, 'desktop.yml'), 'utf8')) as {
  on: { push: { tags: string[] } };
  jobs: Record<string, Job>;
};
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
};
const runs = (job: Job) => job.steps.map((s) => s.run ?? '').join('\n');

describe('the workflow files', () => {
  it.each(files)('%s passes action-validator', (file) => {
    const r = validate(join(folder, file));
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('and the validator does catch a broken one', () => {
    const broken = join(tempDir(), 'broken.yml');
    writeFileSync(broken, readFileSync(join(folder, 'desktop.yml'), 'utf8').replace('runs-on:', 'run-on:'));
    const r = validate(broken);
    expect(r.status).not.toBe(0);
    expect(r.stdout + r.stderr).toContain('runs-on');
  });
});

describe('the desktop workflow', () => {
  it('tests on Windows, macOS and Linux: npm ci, Electron’s binary, npm test, then the Electron suite, required to run', () => {
    const test = workflow.jobs.test;
    expect(test?.strategy?.matrix.os).toEqual(['ubuntu-latest', 'windows-latest', 'macos-latest']);
    expect(test?.env?.DUBDESK_REQUIRE_ELECTRON).toBe('1');
    const script = runs(test as Job);
    expect(script.indexOf('npm ci')).toBeGreaterThanOrEqual(0);
    // Electron 45's package no longer downloads its binary at install (issue 30, review item 1).
    const install = script.indexOf('node node_modules/electron/install.js');
    expect(install).toBeGreaterThan(script.indexOf('npm ci'));
    expect(script.indexOf('npm test')).toBeGreaterThan(install);
    expect((test as Job).steps.find((s) => s.run?.includes('install.js'))?.if).toBeUndefined();
    expect(script.indexOf('npm run test:electron')).toBeGreaterThan(script.indexOf('npm test'));
    // Linux has no display on the runner: xvfb gives Electron one.
    expect(script).toMatch(/xvfb-run [^\n]*npm test/);
    expect(script).toMatch(/xvfb-run [^\n]*npm run test:electron/);
  });

  it('builds every installer the issue names and uploads them (with the update feeds) as artifacts', () => {
    const build = workflow.jobs.installers as Job;
    const args = Object.fromEntries((build.strategy?.matrix.include ?? []).map((m) => [m.os, m.args]));
    expect(args['windows-latest']).toMatch(/--win nsis/);
    expect(args['macos-latest']).toMatch(/--mac dmg .*--x64 --arm64/);
    expect(args['ubuntu-latest']).toMatch(/--linux AppImage deb/);
    const upload = build.steps.find((s) => s.uses?.startsWith('actions/upload-artifact'));
    for (const pattern of ['*.exe', '*.dmg', '*.AppImage', '*.deb', 'latest*.yml'])
      expect(upload?.with?.path).toContain(pattern);
  });

  it('installs the other processor’s native packages and checks them before building (review item 4)', () => {
    const build = workflow.jobs.installers as Job;
    const include = build.strategy?.matrix.include ?? [];
    const byOs = Object.fromEntries(include.map((m) => [m.os, m]));
    for (const m of include)
      for (const arch of ['x64', 'arm64'])
        if (m.args.includes(`--${arch}`)) expect(m.archs.split(' '), `${m.os} ${arch}`).toContain(arch);
    expect(byOs['macos-latest']?.platform).toBe('darwin');
    expect(byOs['windows-latest']?.platform).toBe('win32');
    const script = runs(build);
    const natives = script.indexOf('node build/natives.mjs install ${{ matrix.platform }}');
    expect(natives).toBeGreaterThan(script.indexOf('npm ci'));
    expect(script).toContain('node build/natives.mjs check ${{ matrix.platform }}');
    expect(script.indexOf('npx electron-builder')).toBeGreaterThan(natives);
  });

  it('fails the audit only on high or critical advisories (review item 25)', () => {
    expect(pkg.scripts['audit:deps']).toBe('npm audit --omit=dev --audit-level=high');
  });

  it('signs and notarises only with its secrets, and says so when they are missing', () => {
    const build = workflow.jobs.installers as Job;
    const signing = build.steps.find((s) => s.id === 'signing' || s.name?.startsWith('Signing')) as Step;
    expect(signing.run).toContain('::notice::MAC_CSC_LINK is not set');
    expect(signing.run).toContain('::notice::WIN_CSC_LINK is not set');
    expect(signing.run).toContain('not notarised');
    const installers = build.steps.find((s) => s.name === 'Installers') as Step;
    expect(Object.keys(installers.env ?? {})).toEqual(
      expect.arrayContaining([
        'CSC_LINK',
        'CSC_KEY_PASSWORD',
        'APPLE_ID',
        'APPLE_APP_SPECIFIC_PASSWORD',
        'APPLE_TEAM_ID',
      ]),
    );
    // Each system its own certificate: with MAC_CSC_LINK unset, macOS gets none, never the Windows pfx.
    const link = installers.env?.CSC_LINK ?? '';
    const mac = link.replace(/runner\.os == 'macOS'/g, 'true').replace(/runner\.os == 'Windows'/g, 'false');
    expect(mac).not.toMatch(/true && secrets\.MAC_CSC_LINK \|\| secrets\.WIN_CSC_LINK/);
    expect(link).toMatch(/runner\.os == 'Windows' && secrets\.WIN_CSC_LINK/);
    expect(installers.env?.CSC_KEY_PASSWORD).toMatch(
      /runner\.os == 'Windows' && secrets\.WIN_CSC_KEY_PASSWORD/,
    );
  });

  it('attaches the installers to a draft release for a version tag', () => {
    expect(workflow.on.push.tags).toEqual(['v*']);
    expect(workflow.jobs.release?.if).toContain('refs/tags/v');
  });

  it('runs only npm scripts that exist', () => {
    const scripts = Object.values(workflow.jobs)
      .map(runs)
      .join('\n')
      .matchAll(/npm run ([\w:-]+)/g);
    const names = [...scripts].map((m) => m[1] ?? '');
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(pkg.scripts, name).toHaveProperty(name);
  });
});
