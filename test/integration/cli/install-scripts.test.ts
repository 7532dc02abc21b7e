/**
 * What `npm install` and `.ci/run` say before Dubdesk runs: no warning about install scripts nobody
 * reviewed (npm 11 lists them, and will block them), and, on a machine whose Node.js is too old and cannot
 * get a newer one, `.ci/run` stops in Dubdesk's words.
 */
import { execFile, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { MIN_NODE } from '../../../electron/cli/node-version.mjs';
import { tempDir } from '../../helpers/temp-dir';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  allowScripts?: Record<string, boolean>;
};
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { hasInstallScript?: boolean }>;
};

describe('install scripts', () => {
  it('every dependency with an install script is allowed or denied by name, so npm warns of none', () => {
    const withScripts = Object.entries(lock.packages)
      .filter(([path, p]) => path && p.hasInstallScript)
      .map(([path]) => path.replace(/^.*node_modules\//, ''));
    expect(withScripts).toContain('@parcel/watcher');
    const unreviewed = withScripts.filter((name) => pkg.allowScripts?.[name] === undefined);
    expect(unreviewed).toEqual([]);
  });

  it('@parcel/watcher’s script is denied: it builds only when asked to, the binary comes prebuilt', () => {
    expect(pkg.allowScripts?.['@parcel/watcher']).toBe(false);
    const watcher = join(ROOT, 'node_modules', '@parcel', 'watcher');
    const script = readFileSync(join(watcher, 'scripts', 'build-from-source.js'), 'utf8');
    expect(script).toContain("process.env.npm_config_build_from_source === 'true'");
    // The prebuilt binary for this machine is there without it.
    const prebuilt = `@parcel/watcher-${process.platform}-${process.arch}`;
    const found = ['', '-glibc', '-musl'].some((libc) =>
      existsSync(join(ROOT, 'node_modules', `${prebuilt}${libc}`, 'package.json')),
    );
    expect(found, prebuilt).toBe(true);
  });

  it('the shipped ffmpeg’s scripts are allowed: they only make the binary executable (ffprobe’s tarball has it 0644)', () => {
    const tools = Object.keys(pkg.allowScripts ?? {}).filter((n) => /^@ff(mpeg|probe)-installer\//.test(n));
    expect(tools.length).toBeGreaterThan(0);
    for (const name of tools) {
      expect(pkg.allowScripts?.[name], name).toBe(true);
      const installed = join(ROOT, 'node_modules', name, 'package.json');
      if (!existsSync(installed)) continue; // another system's: not installed here
      const scripts = (JSON.parse(readFileSync(installed, 'utf8')) as { scripts?: Record<string, string> })
        .scripts;
      expect(scripts?.postinstall, name).toMatch(/^chmod u\+x ff(mpeg|probe)$/);
    }
  });

  const npmKnowsAllowScripts =
    spawnSync('npm', ['approve-scripts', '--help'], { cwd: ROOT, encoding: 'utf8' }).status === 0;
  it.runIf(npmKnowsAllowScripts)('npm itself finds nothing left to review', async () => {
    const r = await promisify(execFile)('npm', ['approve-scripts', '--allow-scripts-pending'], { cwd: ROOT });
    expect(r.stdout + r.stderr).not.toMatch(/not yet covered/);
  });
});

/** A Node.js older than the floor on this machine (Debian's), if there is one. */
const oldNode = ['/usr/bin/node', '/usr/local/bin/node'].find((node) => {
  const version = spawnSync(node, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout?.trim();
  if (!version) return false;
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const [wantMajor = 0, wantMinor = 0] = MIN_NODE.split('.').map(Number);
  return major < wantMajor || (major === wantMajor && minor < wantMinor);
});

describe.skipIf(!oldNode)('.ci/run on a machine with an old Node.js', () => {
  it('allows the node package’s script when it installs Node 22; when that fails, stops in Dubdesk’s words', async () => {
    const home = tempDir('dubdesk-ci-home-');
    const bin = tempDir('dubdesk-ci-bin-');
    const record = join(bin, 'npm-calls.txt');
    // An npm that cannot reach the registry, recording what it was asked and what the prefix allowed.
    writeFileSync(
      join(bin, 'npm'),
      `#!/bin/sh\necho "npm $*" >> '${record}'\ncat "$HOME/.node22/package.json" >> '${record}' 2>/dev/null\necho 'npm error network unreachable' >&2\nexit 1\n`,
    );
    chmodSync(join(bin, 'npm'), 0o755);
    const r = await promisify(execFile)('bash', [join(ROOT, '.ci', 'run')], {
      env: { PATH: `${bin}:${dirname(oldNode ?? '')}:/usr/bin:/bin`, HOME: home },
    }).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
    );
    expect(r.code).toBe(1);
    const calls = readFileSync(record, 'utf8');
    expect(calls).toMatch(/^npm install --prefix .*\.node22 .*node@22$/m);
    expect(JSON.parse(calls.split('\n')[1] ?? '{}')).toMatchObject({ allowScripts: { node: true } });
    expect(calls).not.toMatch(/npm ci/);
    expect(r.stderr).toContain('.ci/run: Node.js 22 could not be installed from the npm registry');
    expect(r.stderr).toMatch(/Dubdesk needs Node\.js 22\.22 or newer; this is Node\.js 20\./);
    expect(r.stderr).toContain('Install Node.js 22 LTS');
  }, 60_000);
});
