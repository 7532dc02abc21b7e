/**
 * What the installers contain. Where Electron's binary is present this packs the app for real
 * (`electron-builder --dir`); here, without it, electron-builder packs the same way around a stand-in
 * Electron folder (Linux), so the file list read back is the real one. Then the config and the icons are
 * checked (the workflows: test/unit/desktop/workflows.test.ts).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { tempDir } from '../../helpers/engine';

const root = join(__dirname, '../../..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const config = parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as Record<string, unknown> & {
  mac: Record<string, unknown>;
  win: Record<string, unknown>;
  linux: Record<string, unknown>;
};

/** The files of an asar archive (its header is a JSON tree after two length-prefixed pickles). */
function asarFiles(file: string): { path: string; unpacked: boolean }[] {
  const buf = readFileSync(file);
  const headerSize = buf.readUInt32LE(4);
  const header = buf.subarray(8, 8 + headerSize);
  const json = header.subarray(8, 8 + header.readUInt32LE(4)).toString('utf8');
  type Node = { files?: Record<string, Node>; unpacked?: boolean };
  const out: { path: string; unpacked: boolean }[] = [];
  const walk = (node: Node, path: string) => {
    if (node.files) for (const [name, child] of Object.entries(node.files)) walk(child, `${path}/${name}`);
    else out.push({ path: path.slice(1), unpacked: node.unpacked === true });
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

describe('the packaged app', () => {
  let files: { path: string; unpacked: boolean }[] = [];
  let resources = '';
  let executable = '';

  beforeAll(() => {
    const dist = electronDist();
    if (!dist) return;
    const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
    const env = { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' };
    execFileSync(npx, ['vite', 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'error'], {
      cwd: root,
      env,
    });
    execFileSync(process.execPath, ['electron/main/build.mjs'], { cwd: root, env });
    const out = tempDir('dubdesk-release-');
    execFileSync(
      npx,
      [
        'electron-builder',
        platformFlag[process.platform] ?? '--linux',
        'dir',
        `-c.electronDist=${dist}`,
        `-c.directories.output=${out}`,
        '--publish',
        'never',
      ],
      { cwd: root, env, stdio: 'pipe' },
    );
    resources =
      process.platform === 'darwin'
        ? join(out, `mac-${process.arch}`, 'Dubdesk.app', 'Contents', 'Resources')
        : join(out, `${process.platform === 'win32' ? 'win' : 'linux'}-unpacked`, 'resources');
    files = asarFiles(join(resources, 'app.asar'));
    executable =
      process.platform === 'darwin'
        ? join(resources, '..', 'Frameworks', 'Electron Framework.framework', 'Electron Framework')
        : join(resources, '..', process.platform === 'win32' ? 'Dubdesk.exe' : 'dubdesk');
  }, 240_000);

  it("packs React's production build, though the tests run under NODE_ENV=test", () => {
    if (!files.length && process.platform !== 'linux') return;
    expect(process.env.NODE_ENV).toBe('test');
    const assets = join(root, 'dist', 'renderer', 'assets');
    const bundles = readdirSync(assets).filter((n) => n.endsWith('.js'));
    expect(bundles.length).toBeGreaterThan(0);
    for (const f of bundles) expect(readFileSync(join(assets, f), 'utf8'), f).not.toContain('jsxDEV');
  });

  it('holds the bundles, the renderer and package.json; no source maps', () => {
    // Without Electron's binary on macOS or Windows there is no package to read: the config tests stand.
    if (!files.length && process.platform !== 'linux') return;
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
  });

  it('has its fuses set (22.16): no running as Node, no NODE_OPTIONS or --inspect, asar only and checked', () => {
    if (!files.length) return;
    expect(fusesOf(executable)).toMatchObject({
      RunAsNode: '0',
      EnableCookieEncryption: '1',
      EnableNodeOptionsEnvironmentVariable: '0',
      EnableNodeCliInspectArguments: '0',
      EnableEmbeddedAsarIntegrityValidation: '1',
      OnlyLoadAppFromAsar: '1',
    });
  });

  it('carries only the native modules in node_modules, unpacked from the asar; no dev dependency', () => {
    if (!files.length && process.platform !== 'linux') return;
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
    expect(modules).toContain('better-sqlite3');
    expect(modules).toContain('@napi-rs/keyring');
    expect(modules).toContain('@parcel/watcher');
    for (const dev of Object.keys(pkg.devDependencies)) expect(modules, dev).not.toContain(dev);
    const native = files.filter((f) => f.path.endsWith('.node'));
    expect(native.some((f) => f.path.includes(`better-sqlite3/prebuilds/`))).toBe(true);
    expect(native.some((f) => f.path.includes('@napi-rs/keyring-'))).toBe(true);
    expect(native.some((f) => f.path.includes('@parcel/watcher-'))).toBe(true);
    for (const f of native) {
      expect(f.unpacked, f.path).toBe(true);
      expect(existsSync(join(resources, 'app.asar.unpacked', f.path)), f.path).toBe(true);
    }
  });
});

describe('the installer configuration', () => {
  const targets = (o: Record<string, unknown>) =>
    (o.target as ({ target: string; arch?: string[] } | string)[]).map((t) =>
      typeof t === 'string' ? { target: t, arch: undefined } : t,
    );

  it('builds nsis for Windows, dmg for macOS (x64 and arm64 each), AppImage and deb for Linux', () => {
    expect(config.appId).toBe('app.dubdesk.desktop');
    expect(config.productName).toBe('Dubdesk');
    expect(targets(config.win)).toEqual([{ target: 'nsis', arch: ['x64', 'arm64'] }]);
    // The zip beside the dmg is what electron-updater installs on macOS.
    expect(targets(config.mac)).toEqual([
      { target: 'dmg', arch: ['x64', 'arm64'] },
      { target: 'zip', arch: ['x64', 'arm64'] },
    ]);
    expect(targets(config.linux).map((t) => t.target)).toEqual(['AppImage', 'deb']);
  });

  it('signs macOS with the hardened runtime and entitlements, notarization off until set up', () => {
    expect(config.mac).toMatchObject({ hardenedRuntime: true, notarize: false });
    const plist = readFileSync(join(root, String(config.mac.entitlements)), 'utf8');
    expect(plist).toMatch(/<plist version="1.0">/);
    for (const key of [
      'com.apple.security.cs.allow-jit',
      'com.apple.security.cs.allow-unsigned-executable-memory',
    ])
      expect(plist).toContain(`<key>${key}</key>`);
    // 22.16: the native modules are signed with the app's own identity, so library validation stays on.
    expect(plist).not.toContain('disable-library-validation');
  });

  it('unpacks every native module, needs no rebuild, and keeps node_modules to the native ones', () => {
    const unpack = config.asarUnpack as string[];
    expect(unpack).toEqual(
      expect.arrayContaining([
        '**/*.node',
        'node_modules/better-sqlite3/**',
        'node_modules/@napi-rs/**',
        'node_modules/@parcel/**',
      ]),
    );
    expect(config.npmRebuild).toBe(false);
    const filesConfig = config.files as string[];
    expect(filesConfig).toContain('!node_modules/**');
    // Every runtime dependency that is not native is bundled by esbuild, so none is needed in the package.
    const build = readFileSync(join(root, 'electron/main/build.mjs'), 'utf8');
    expect(build).toMatch(/NATIVE = \['better-sqlite3', '@napi-rs\/keyring', '@parcel\/watcher'\]/);
  });
});

describe('the icons', () => {
  const png = (file: string) => {
    const b = readFileSync(join(root, file));
    expect(b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), file).toBe(
      true,
    );
    return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  };

  it('are real PNGs from 16 to 1024 pixels', () => {
    for (const size of [16, 24, 32, 48, 64, 128, 256, 512, 1024])
      expect(png(`build/icons/${size}x${size}.png`)).toEqual({ width: size, height: size });
    expect(png('build/tray/trayTemplate.png')).toEqual({ width: 16, height: 16 });
    expect(png('build/tray/trayTemplate@2x.png')).toEqual({ width: 32, height: 32 });
  });

  it('include a Windows .ico with a 256-pixel image and a macOS .icns with its retina sizes', () => {
    const ico = readFileSync(join(root, String(config.win.icon)));
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2)]).toEqual([0, 1]);
    const count = ico.readUInt16LE(4);
    const widths = Array.from({ length: count }, (_, i) => ico[6 + i * 16] || 256);
    expect(widths).toEqual(expect.arrayContaining([16, 32, 48, 256]));
    const icns = readFileSync(join(root, String(config.mac.icon)));
    expect(icns.subarray(0, 4).toString('latin1')).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
    const types: string[] = [];
    for (let at = 8; at < icns.length; at += icns.readUInt32BE(at + 4))
      types.push(icns.subarray(at, at + 4).toString('latin1'));
    expect(types).toEqual(expect.arrayContaining(['ic10', 'ic09', 'ic08']));
  });
});
