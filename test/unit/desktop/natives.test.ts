/**
 * The packaging check for every target electron-builder.yml builds (issue 30, review item 4): a package
 * carries its target's native binaries (better-sqlite3's prebuild, the folder watcher, the keyring), built
 * for its system and processor, and no other target's. The trees are made of real binaries: better-sqlite3
 * ships a prebuild for each of the eight targets, which stand in for the watcher's and keyring's.
 */
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import afterPack, { resourcesOf } from '../../../build/after-pack.mjs';
import { assertNatives, binaryTarget, nativeProblems, nativesFor, untar } from '../../../build/natives.mjs';
import { tempDir } from '../../helpers/temp-dir';

const root = join(__dirname, '../../..');
const prebuild = (target: string) =>
  join(root, 'node_modules', 'better-sqlite3', 'prebuilds', `${target}.node`);
type Targets = { target: string | { target: string; arch?: string[] } }[] | string[];
const config = parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as Record<
  'mac' | 'win' | 'linux',
  { target: Targets }
>;

/** Every system and processor electron-builder.yml packs (Linux for x64, as the workflow asks). */
const TARGETS: [string, string][] = (
  [
    ['darwin', config.mac],
    ['win32', config.win],
    ['linux', config.linux],
  ] as const
).flatMap(([platform, section]) => {
  const archs = new Set(
    (section.target as (string | { arch?: string[] })[]).flatMap((t) =>
      typeof t === 'string' ? ['x64'] : (t.arch ?? ['x64']),
    ),
  );
  return [...archs].map((arch): [string, string] => [platform, arch]);
});

/** A package's node_modules for a target, every native file a real binary of `built` (the target's by default). */
function tree(platform: string, arch: string, o: { without?: string; built?: string; extra?: string } = {}) {
  const modules = join(tempDir('dubdesk-natives-'), 'node_modules');
  for (const { file, pkg, tool, builtFor } of nativesFor(platform, arch)) {
    if (pkg && pkg === o.without) continue;
    mkdirSync(dirname(join(modules, file)), { recursive: true });
    copyFileSync(prebuild(o.built ?? `${platform}-${builtFor ?? arch}`), join(modules, file));
    if (tool) chmodSync(join(modules, file), 0o755);
  }
  if (o.extra)
    copyFileSync(prebuild(o.extra), join(modules, 'better-sqlite3', 'prebuilds', `${o.extra}.node`));
  return modules;
}

describe('the native binaries’ headers', () => {
  it.each([
    ['darwin-x64', 'darwin', 'x64'],
    ['darwin-arm64', 'darwin', 'arm64'],
    ['win32-x64', 'win32', 'x64'],
    ['win32-arm64', 'win32', 'arm64'],
    ['linux-x64', 'linux', 'x64'],
    ['linux-arm64', 'linux', 'arm64'],
  ])('say %s is for %s %s', (target, platform, arch) => {
    expect(binaryTarget(readFileSync(prebuild(target)).subarray(0, 4096))).toEqual({ platform, arch });
  });
});

describe('the packaging check, for every target electron-builder.yml builds', () => {
  it('covers macOS and Windows on both processors, and Linux', () => {
    expect(TARGETS).toEqual(
      expect.arrayContaining([
        ['darwin', 'x64'],
        ['darwin', 'arm64'],
        ['win32', 'x64'],
        ['win32', 'arm64'],
        ['linux', 'x64'],
      ]),
    );
  });

  it.each(TARGETS)('%s %s: passes a package that carries its own binaries', (platform, arch) => {
    expect(nativeProblems(tree(platform, arch), platform, arch)).toEqual([]);
  });

  it.each(TARGETS)('%s %s: refuses one without its watcher, naming it and the fix', (platform, arch) => {
    const watcher = nativesFor(platform, arch).find((n) => n.pkg?.startsWith('@parcel/'))?.pkg ?? '';
    const modules = tree(platform, arch, { without: watcher });
    expect(() => assertNatives(modules, platform, arch)).toThrow(
      new RegExp(`missing ${watcher}[\\s\\S]*node build/natives\\.mjs install ${platform} ${arch}`),
    );
  });

  it.each(TARGETS)('%s %s: refuses one whose binaries are the other processor’s', (platform, arch) => {
    const other = `${platform}-${arch === 'x64' ? 'arm64' : 'x64'}`;
    const problems = nativeProblems(tree(platform, arch, { built: other }), platform, arch);
    // Windows on Arm ships the x64 ffmpeg and ffprobe: those two are right.
    expect(problems).toHaveLength(platform === 'win32' && arch === 'arm64' ? 3 : 5);
    expect(problems[0]).toMatch(/is built for \w+ (x64|arm64)$/);
  });

  it.each(TARGETS)(
    '%s %s: refuses one without its ffmpeg or ffprobe, or with another target’s',
    (platform, arch) => {
      const tools = nativesFor(platform, arch).filter((n) => n.tool);
      expect(tools.map((t) => t.file)).toEqual([
        expect.stringMatching(/^@ffmpeg-installer\/.*\/ffmpeg(\.exe)?$/),
        expect.stringMatching(/^@ffprobe-installer\/.*\/ffprobe(\.exe)?$/),
      ]);
      const probe = tools[1]?.pkg ?? '';
      expect(() => assertNatives(tree(platform, arch, { without: probe }), platform, arch)).toThrow(
        new RegExp(`missing ${probe}[\\s\\S]*node build/natives\\.mjs install ${platform} ${arch}`),
      );
      const modules = tree(platform, arch);
      const stranger = platform === 'linux' ? 'darwin-arm64' : 'linux-x64';
      mkdirSync(join(modules, '@ffmpeg-installer', stranger), { recursive: true });
      copyFileSync(prebuild(stranger), join(modules, '@ffmpeg-installer', stranger, 'ffmpeg'));
      expect(nativeProblems(modules, platform, arch)).toEqual([
        `@ffmpeg-installer/${stranger} belongs to another target`,
      ]);
    },
  );

  it.runIf(process.platform !== 'win32').each(TARGETS.filter(([p]) => p !== 'win32'))(
    '%s %s: refuses an ffprobe that is not executable (its tarball has it 0644)',
    (platform, arch) => {
      const modules = tree(platform, arch);
      const probe = nativesFor(platform, arch).find((n) => n.file.endsWith('ffprobe'))?.file ?? '';
      chmodSync(join(modules, probe), 0o644);
      expect(nativeProblems(modules, platform, arch)).toEqual([`${probe} is not executable`]);
    },
  );

  it.each(TARGETS)('%s %s: refuses one that also carries another target’s prebuild', (platform, arch) => {
    const extra = platform === 'linux' ? 'win32-x64' : 'linux-x64';
    expect(nativeProblems(tree(platform, arch, { extra }), platform, arch)).toEqual([
      `better-sqlite3/prebuilds/${extra}.node belongs to another target`,
    ]);
  });
});

describe('the afterPack hook', () => {
  const context = (appOutDir: string, electronPlatformName: string, arch: number) => ({
    appOutDir,
    electronPlatformName,
    arch,
    packager: { appInfo: { productFilename: 'Dubdesk' } },
  });

  it('reads the resources of each system’s layout', () => {
    expect(resourcesOf(context('/out/mac-arm64', 'darwin', 3))).toBe(
      '/out/mac-arm64/Dubdesk.app/Contents/Resources',
    );
    expect(resourcesOf(context('/out/win-unpacked', 'win32', 1))).toBe('/out/win-unpacked/resources');
  });

  it('refuses an arm64 Mac pack whose unpacked node_modules is the x64 one, and passes the right one', async () => {
    const packed = (modules: string) => {
      const out = tempDir('dubdesk-pack-');
      const unpacked = join(out, 'Dubdesk.app', 'Contents', 'Resources', 'app.asar.unpacked');
      mkdirSync(unpacked, { recursive: true });
      renameSync(modules, join(unpacked, 'node_modules'));
      return out;
    };
    await expect(afterPack(context(packed(tree('darwin', 'x64')), 'darwin', 3))).rejects.toThrow(
      /darwin arm64 package lacks/,
    );
    await expect(afterPack(context(packed(tree('darwin', 'arm64')), 'darwin', 3))).resolves.toBeUndefined();
  });
});

describe('installing another processor’s packages', () => {
  it('unpacks an npm tarball’s package folder, binaries and all, without a tar program', () => {
    const made = tempDir('dubdesk-tarball-');
    mkdirSync(join(made, 'package', 'lib'), { recursive: true });
    writeFileSync(join(made, 'package', 'package.json'), '{"name":"@parcel/watcher-darwin-x64"}');
    copyFileSync(prebuild('darwin-x64'), join(made, 'package', 'watcher.node'));
    writeFileSync(join(made, 'package', 'lib', 'index.js'), 'module.exports = 1;');
    // Relative names: a Windows runner's GNU tar would read `C:` as a host.
    execFileSync('tar', ['-czf', 'p.tgz', 'package'], { cwd: made });
    const into = join(tempDir('dubdesk-modules-'), '@parcel', 'watcher-darwin-x64');
    untar(gunzipSync(readFileSync(join(made, 'p.tgz'))), into);
    expect(readFileSync(join(into, 'package.json'), 'utf8')).toContain('watcher-darwin-x64');
    expect(readFileSync(join(into, 'watcher.node')).equals(readFileSync(prebuild('darwin-x64')))).toBe(true);
    expect(readFileSync(join(into, 'lib', 'index.js'), 'utf8')).toBe('module.exports = 1;');
    expect(statSync(join(into, 'watcher.node')).isFile()).toBe(true);
  });
});
