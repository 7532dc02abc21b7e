/**
 * What the installers contain. Where Electron's binary is present this packs the app for real
 * (`electron-builder --dir`); without it, on Linux, electron-builder packs the same way around a stand-in
 * Electron folder, so the file list read back is the real one. It packs for this machine's processor, and
 * for the other one, which the afterPack check must refuse while that processor's native packages are not
 * installed (issue 30, review item 4). On macOS or Windows without Electron's binary nothing can be packed:
 * each test says so and is skipped, never passed. The configuration and the icons:
 * test/unit/desktop/packaging-config.test.ts.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync as run, spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { tempDir } from '../../helpers/temp-dir';

const root = join(__dirname, '../../..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** The files of an asar archive (its header is a JSON tree after two length-prefixed pickles), and their bytes. */
function asarFiles(file: string): { path: string; unpacked: boolean; bytes: () => Buffer }[] {
  const buf = readFileSync(file);
  const headerSize = buf.readUInt32LE(4);
  const header = buf.subarray(8, 8 + headerSize);
  const json = header.subarray(8, 8 + header.readUInt32LE(4)).toString('utf8');
  type Node = { files?: Record<string, Node>; unpacked?: boolean; offset?: string; size?: number };
  const out: { path: string; unpacked: boolean; bytes: () => Buffer }[] = [];
  const walk = (node: Node, path: string) => {
    if (node.files) for (const [name, child] of Object.entries(node.files)) walk(child, `${path}/${name}`);
    else {
      const at = 8 + headerSize + Number(node.offset ?? 0);
      const bytes = () => buf.subarray(at, at + (node.size ?? 0));
      out.push({ path: path.slice(1), unpacked: node.unpacked === true, bytes });
    }
  };
  walk(JSON.parse(json) as Node, '');
  return out;
}

/** What the package's node_modules may hold: the native modules and what the watcher's JS loads. */
const RUNTIME_MODULES = [
  'better-sqlite3',
  '@napi-rs/keyring',
  '@parcel/watcher',
  'detect-libc',
  'picomatch',
  'is-glob',
  'is-extglob',
  // The ffmpeg and ffprobe shipped for the audio path (issue 34).
  `@ffmpeg-installer/${process.platform}-${process.arch}`,
  `@ffprobe-installer/${process.platform}-${process.arch}`,
];
const platformFlag = { linux: '--linux', darwin: '--mac', win32: '--win' } as Record<string, string>;

/** Electron's fuse wire as its binary carries it: sentinel, version 1, length, each fuse at Electron's default. */
const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const FUSE_WIRE = Buffer.concat([Buffer.from(FUSE_SENTINEL), Buffer.from([1, 8]), Buffer.from('10110001')]);

/** The fuses of a packed executable, by name: '1' on, '0' off. */
function fusesOf(executable: string): Record<string, string> {
  const bin = readFileSync(executable);
  const at = bin.indexOf(FUSE_SENTINEL) + FUSE_SENTINEL.length;
  const names = [
    'RunAsNode',
    'EnableCookieEncryption',
    'EnableNodeOptionsEnvironmentVariable',
    'EnableNodeCliInspectArguments',
    'EnableEmbeddedAsarIntegrityValidation',
    'OnlyLoadAppFromAsar',
    'LoadBrowserProcessSpecificV8Snapshot',
    'GrantFileProtocolExtraPrivileges',
  ];
  return Object.fromEntries(names.map((n, i) => [n, String.fromCharCode(bin[at + 2 + i] ?? 0)]));
}

function electronDist(): string | null {
  const real = join(root, 'node_modules', 'electron', 'dist');
  if (existsSync(real)) return real;
  if (process.platform !== 'linux') return null;
  // A stand-in Electron folder: electron-builder copies it and renames the executable, as with the real one.
  const fake = tempDir('dubdesk-fake-electron-');
  mkdirSync(join(fake, 'resources'));
  // With a fuse wire, as Electron's binary has one: electron-builder flips it (electronFuses) for real.
  writeFileSync(join(fake, 'electron'), Buffer.concat([Buffer.from('#!/bin/sh\n'), FUSE_WIRE]));
  chmodSync(join(fake, 'electron'), 0o755);
  writeFileSync(join(fake, 'LICENSE'), '');
  writeFileSync(join(fake, 'version'), '45.4.1');
  return fake;
}

/** Why nothing can be packed here, said once in the output; null when a pack can be made. */
const dist = electronDist();
const cannotPack = dist
  ? null
  : `packaging skipped on ${process.platform}: Electron's binary is not installed (run \`npx install-electron\`, then this test)`;
if (cannotPack) console.log(cannotPack);
const skipUnlessPacked = (ctx: TestContext) => {
  if (cannotPack) ctx.skip(cannotPack);
};
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const env = { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' };
const otherArch = process.arch === 'arm64' ? 'x64' : 'arm64';
const pack = (arch: string, out: string) =>
  spawnSync(
    npx,
    [
      'electron-builder',
      platformFlag[process.platform] ?? '--linux',
      'dir',
      `--${arch}`,
      `-c.electronDist=${dist}`,
      `-c.directories.output=${out}`,
      '--publish',
      'never',
    ],
    { cwd: root, env, encoding: 'utf8', shell: process.platform === 'win32' },
  );

describe('the packaged app', () => {
  let files: ReturnType<typeof asarFiles> = [];
  let resources = '';
  let executable = '';
  let refused: ReturnType<typeof pack> | null = null;

  beforeAll(() => {
    if (!dist) return;
    run(npx, ['vite', 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'error'], {
      cwd: root,
      env,
      shell: process.platform === 'win32',
    });
    run(process.execPath, ['electron/main/build.mjs'], { cwd: root, env });
    const out = tempDir('dubdesk-release-');
    const packed = pack(process.arch, out);
    if (packed.status !== 0) throw new Error(`electron-builder failed:\n${packed.stdout}\n${packed.stderr}`);
    const suffix = process.arch === 'x64' ? '' : `-${process.arch}`;
    resources =
      process.platform === 'darwin'
        ? join(out, `mac${suffix}`, 'Dubdesk.app', 'Contents', 'Resources')
        : join(out, `${process.platform === 'win32' ? 'win' : 'linux'}${suffix}-unpacked`, 'resources');
    files = asarFiles(join(resources, 'app.asar'));
    executable =
      process.platform === 'darwin'
        ? join(resources, '..', 'Frameworks', 'Electron Framework.framework', 'Electron Framework')
        : join(resources, '..', process.platform === 'win32' ? 'Dubdesk.exe' : 'dubdesk');
    refused = pack(otherArch, tempDir('dubdesk-release-'));
  }, 400_000);

  it("packs React's production build, though the tests run under NODE_ENV=test", (ctx) => {
    skipUnlessPacked(ctx);
    expect(process.env.NODE_ENV).toBe('test');
    const assets = join(root, 'dist', 'renderer', 'assets');
    const bundles = readdirSync(assets).filter((n) => n.endsWith('.js'));
    expect(bundles.length).toBeGreaterThan(0);
    for (const f of bundles) expect(readFileSync(join(assets, f), 'utf8'), f).not.toContain('jsxDEV');
  });

  it('holds the bundles, the renderer and package.json (named Dubdesk); no source maps, no CLI bundle', (ctx) => {
    skipUnlessPacked(ctx);
    const paths = files.map((f) => f.path);
    for (const p of [
      'package.json',
      'dist/electron/main.cjs',
      'dist/electron/preload.cjs',
      'dist/electron/engine.cjs',
      'dist/electron/icons/tray.png',
      'dist/renderer/index.html',
    ])
      expect(paths, p).toContain(p);
    expect(paths.filter((p) => p.endsWith('.map'))).toEqual([]);
    expect(paths.filter((p) => p.startsWith('dist/cli/'))).toEqual([]);
    // Electron names the app (menus, the Linux user-data folder) from the packed package.json's productName.
    const packed =
      files
        .find((f) => f.path === 'package.json')
        ?.bytes()
        .toString('utf8') ?? '{}';
    expect(JSON.parse(packed)).toMatchObject({ productName: 'Dubdesk', desktopName: 'dubdesk.desktop' });
  });

  it('has its fuses set (22.16): no running as Node, no NODE_OPTIONS or --inspect, asar only and checked', (ctx) => {
    skipUnlessPacked(ctx);
    expect(fusesOf(executable)).toMatchObject({
      RunAsNode: '0',
      EnableCookieEncryption: '1',
      EnableNodeOptionsEnvironmentVariable: '0',
      EnableNodeCliInspectArguments: '0',
      EnableEmbeddedAsarIntegrityValidation: '1',
      OnlyLoadAppFromAsar: '1',
    });
  });

  it('carries only the native modules and its ffmpeg, only its own binaries, and unpacks nothing but them', (ctx) => {
    skipUnlessPacked(ctx);
    const modules = new Set(
      files
        .filter((f) => f.path.startsWith('node_modules/'))
        .map((f) =>
          f.path
            .split('/')
            .slice(1, f.path.startsWith('node_modules/@') ? 3 : 2)
            .join('/'),
        ),
    );
    expect(
      [...modules].every((m) => RUNTIME_MODULES.some((r) => m === r || m.startsWith(`${r}-`))),
      [...modules].join(),
    ).toBe(true);
    for (const dev of Object.keys(pkg.devDependencies)) expect(modules, dev).not.toContain(dev);
    const native = files.filter((f) => f.path.endsWith('.node')).map((f) => f.path);
    expect(native.sort()).toEqual(
      [
        `node_modules/better-sqlite3/prebuilds/${process.platform}-${process.arch}.node`,
        expect.stringMatching(
          new RegExp(`^node_modules/@napi-rs/keyring-${process.platform}-${process.arch}`),
        ),
        expect.stringMatching(
          new RegExp(`^node_modules/@parcel/watcher-${process.platform}-${process.arch}`),
        ),
      ].sort(),
    );
    const exe = process.platform === 'win32' ? '.exe' : '';
    const tools = [
      `node_modules/@ffmpeg-installer/${process.platform}-${process.arch}/ffmpeg${exe}`,
      `node_modules/@ffprobe-installer/${process.platform}-${process.arch}/ffprobe${exe}`,
    ];
    expect(
      files
        .filter((f) => f.unpacked)
        .map((f) => f.path)
        .sort(),
    ).toEqual([...native, ...tools].sort());
    for (const f of [...native, ...tools])
      expect(existsSync(join(resources, 'app.asar.unpacked', f)), f).toBe(true);
  });

  it(`refuses to pack for ${otherArch} while that processor's native packages are not installed`, (ctx) => {
    skipUnlessPacked(ctx);
    expect(refused?.status).not.toBe(0);
    const said = `${refused?.stdout ?? ''}${refused?.stderr ?? ''}`;
    expect(said).toContain(`The ${process.platform} ${otherArch} package lacks the right native modules`);
    expect(said).toMatch(new RegExp(`missing @parcel/watcher-${process.platform}-${otherArch}`));
    expect(said).toContain(`node build/natives.mjs install ${process.platform} ${otherArch}`);
  });
});
