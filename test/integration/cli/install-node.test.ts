import { execFile, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { MIN_NODE } from '../../../electron/cli/node-version.mjs';
import { tempDir } from '../../helpers/temp-dir';

const run = promisify(execFile);
/** npm's own range rules (semver is in the tree through npm's tooling; not a dependency of Dubdesk's). */
const semver = createRequire(import.meta.url)('semver') as {
  satisfies(version: string, range: string): boolean;
};
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  engines?: Record<string, string>;
  devEngines?: unknown;
};

/** A Node.js older than Dubdesk's floor on this machine (Debian's), with the npm that runs on it. */
function oldNode(): { node: string; npm: string; version: string } | null {
  for (const node of ['/usr/bin/node', '/usr/local/bin/node']) {
    const r = spawnSync(node, ['-p', 'process.versions.node'], { encoding: 'utf8' });
    const version = (r.stdout ?? '').trim();
    const npm = join(dirname(node), '../lib/node_modules/npm/bin/npm-cli.js');
    if (r.status !== 0 || !version || !existsSync(npm)) continue;
    const [major = 0, minor = 0] = version.split('.').map(Number);
    const [wantMajor = 0, wantMinor = 0] = MIN_NODE.split('.').map(Number);
    if (major < wantMajor || (major === wantMajor && minor < wantMinor)) return { node, npm, version };
  }
  return null;
}

const old = oldNode();
/** The old Node (only used when there is one: the tests below are skipped otherwise). */
const OLD = old ?? { node: '', npm: '', version: '' };

/** The files `npm install` reads before any dependency is fetched, copied into an empty folder. */
function checkout(): string {
  const dir = tempDir('dubdesk-install-');
  for (const file of [
    'package.json',
    'package-lock.json',
    '.npmrc',
    '.nvmrc',
    'scripts/check-node.mjs',
    'electron/cli/node-version.mjs',
  ]) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    copyFileSync(join(ROOT, file), join(dir, file));
  }
  return dir;
}

/** `npm install --dry-run ARGS` in a fresh checkout on the old Node: exit code and everything it printed. */
async function npmInstall(...args: string[]): Promise<{ code: number; out: string; dir: string }> {
  return npmInstallIn(checkout(), ...args);
}

async function npmInstallIn(
  dir: string,
  ...args: string[]
): Promise<{ code: number; out: string; dir: string }> {
  const r = await run(OLD.node, [OLD.npm, 'install', '--dry-run', '--no-audit', '--no-fund', ...args], {
    cwd: dir,
    env: { ...process.env, PATH: `${dirname(OLD.node)}:${process.env.PATH ?? ''}` },
  }).then(
    (x) => ({ code: 0, out: x.stdout + x.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
  );
  return { ...r, dir };
}

const FLOOR = MIN_NODE.replace(/\.0$/, '');

describe.skipIf(!old)(`npm install on an old Node.js (${old?.version ?? 'none here'})`, () => {
  // npm checks the engines before anything of Dubdesk runs: its refusal is the first thing said, so it
  // must be the clearest npm can say, and the README must name it as npm prints it.
  it('stops at once with one error naming the Node.js needed and the one here, before anything is fetched', async () => {
    const r = await npmInstall();
    expect(r.code, r.out).not.toBe(0);
    expect(r.out).toContain('EBADENGINE');
    expect(r.out).toContain(`Required: {"node":">=${FLOOR}"}`);
    expect(r.out).toContain(OLD.version);
    // Not devEngines' "Invalid semver version", which reads as if package.json were broken.
    expect(r.out).not.toMatch(/Invalid semver|EBADDEVENGINES/);
    expect(r.out.trim().split('\n').length, r.out).toBeLessThan(12); // one error, not a warning per dependency
    expect(r.out).not.toContain('check-node'); // stopped before any script ran
    expect(existsSync(join(r.dir, 'node_modules'))).toBe(false);
    // The README tells a new user what this is and what to install, naming the error npm printed.
    const code = /npm error code (\S+)/.exec(r.out)?.[1] ?? 'no code';
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain(`\`${code}\``);
    expect(readme).toMatch(/Node\.js 22 LTS/);
  }, 120_000);

  // npm before 10.9 has no devEngines (nor has --force): the root's preinstall is then the first of
  // Dubdesk's own code to run, after npm laid out the dependencies, and it stops the install there.
  it('forced past npm’s check, the preinstall stops it in Dubdesk’s words before the build', async () => {
    expect(pkg.scripts.preinstall).toBe('node scripts/check-node.mjs');
    const r = await npmInstall('--force');
    expect(r.code, r.out).not.toBe(0);
    expect(r.out).toContain(`Dubdesk needs Node.js ${FLOOR} or newer; this is Node.js ${OLD.version}.`);
    expect(r.out).toContain('Install Node.js 22 LTS');
    expect(r.out).not.toContain('> dubdesk@0.1.0 prepare');
  }, 120_000);
});

describe('the floor is said the same everywhere', () => {
  it('the project’s .npmrc makes npm refuse an unsupported Node instead of warning', () => {
    expect(readFileSync(join(ROOT, '.npmrc'), 'utf8')).toMatch(/^engine-strict=true$/m);
  });

  it('every dependency runs on the floor (engine-strict would refuse the install otherwise)', () => {
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { engines?: { node?: string } | string[]; optional?: boolean }>;
    };
    const refusing = Object.entries(lock.packages)
      .filter(([path, p]) => path && !p.optional && !Array.isArray(p.engines) && p.engines?.node)
      .filter(([, p]) => !semver.satisfies(MIN_NODE, (p.engines as { node: string }).node))
      .map(([path, p]) => `${path} wants node ${(p.engines as { node: string }).node}`);
    expect(refusing).toEqual([]);
  });

  it('engines asks for the version the CLI checks, and nothing else asks differently', () => {
    expect(pkg.engines).toEqual({ node: `>=${FLOOR}` });
    // npm >= 10.9 reports any devEngines mismatch as "Invalid semver version": engines says it plainly.
    expect(pkg.devEngines).toBeUndefined();
  });
});
