/**
 * The installers' configuration (electron-builder.yml) and the icons: what a pack on this machine cannot
 * show, because it builds only here and for the pack's own target (issue 30, review items 3, 5, 12, 15, 17,
 * 20, 21, 22). The packed app itself: test/integration/desktop/packaging.test.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = join(__dirname, '../../..');
type Section = Record<string, unknown>;
const config = parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as Section & {
  mac: Section & { fileAssociations: { ext: string[] }[]; extendInfo: { CFBundleDocumentTypes: Section[] } };
  win: Section;
  linux: Section;
  nsis: Section;
  deb: Section & { depends: string[] };
  electronFuses: Section;
};
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const targets = (o: Section) =>
  (o.target as ({ target: string; arch?: string[] } | string)[]).map((t) =>
    typeof t === 'string' ? { target: t, arch: undefined } : t,
  );
/** An artifact name as the README spells it: `${version}` as <version>, `${arch}` as <arch>. */
const spelled = (pattern: unknown, ext: string) =>
  String(pattern)
    .replace('${productName}', String(config.productName))
    .replace('${name}', String(pkg.name))
    .replace('${version}', '<version>')
    .replace('${arch}', '<arch>')
    .replace('${ext}', ext);

describe('the installer configuration', () => {
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

  it('names the app Dubdesk at run time too: productName and desktopName in package.json (17)', () => {
    expect(pkg.productName).toBe(config.productName);
    expect(pkg.desktopName).toBe(`${String(pkg.name)}.desktop`);
  });

  it('names one installer per processor, as the README lists them (21)', () => {
    expect(config.nsis.buildUniversalInstaller).toBe(false);
    for (const [section, ext] of [
      [config.nsis, 'exe'],
      [config.dmg as Section, 'dmg'],
      [config.appImage as Section, 'AppImage'],
      [config.deb, 'deb'],
    ] as const) {
      expect(String(section.artifactName)).toContain('${arch}');
      expect(readme).toContain(`\`${spelled(section.artifactName, ext)}\``);
    }
  });

  it('re-signs ad hoc after flipping the fuses, so an unsigned Apple Silicon build launches (3)', () => {
    expect(config.electronFuses.resetAdHocDarwinSignature).toBe(true);
  });

  it('makes the AppImage with the static runtime, which needs no libfuse2 (5)', () => {
    expect(config.toolsets).toEqual({ appimage: '1.0.3' });
  });

  it('lists Dubdesk under "Open with" on Windows for every type macOS opens with it (12)', () => {
    expect(config.nsis.include).toBe('build/installer.nsh');
    const nsh = readFileSync(join(root, 'build', 'installer.nsh'), 'utf8');
    const exts = config.mac.fileAssociations.flatMap((a) => a.ext);
    expect(exts.length).toBeGreaterThan(5);
    for (const ext of exts) {
      expect(nsh).toContain(`!insertmacro dubdeskOpenWith "${ext}"`);
      expect(nsh).toContain(`!insertmacro dubdeskForgetOpenWith "${ext}"`);
    }
    expect(nsh).toMatch(
      /!macro customInstall[\s\S]*shell\\open\\command" "" '"\$INSTDIR\\\$\{APP_EXECUTABLE_FILENAME\}" "%1"'/,
    );
    expect(nsh).toMatch(
      /!macro customUnInstall[\s\S]*DeleteRegKey SHCTX "Software\\Classes\\\$\{DUBDESK_PROGID\}"/,
    );
  });

  it('takes folders dropped on the Dock icon (20)', () => {
    expect(config.mac.extendInfo.CFBundleDocumentTypes).toEqual([
      expect.objectContaining({ LSItemContentTypes: ['public.folder'], CFBundleTypeRole: 'Viewer' }),
    ]);
  });

  it('states the C library the native modules need in the deb, beside electron-builder’s own list (15)', () => {
    expect(config.deb.depends).toEqual(
      expect.arrayContaining([
        'libgtk-3-0',
        'libnss3',
        'libsecret-1-0',
        'libc6 (>= 2.34)',
        'libstdc++6 (>= 11)',
      ]),
    );
    expect(readme).toMatch(/glibc 2\.34/);
  });

  it('ships only the target’s natives and ffmpeg, unpacks only .node files and ffmpeg/ffprobe, leaves the CLI bundle out, checks every pack (22, 4)', () => {
    const files = config.files as string[];
    expect(files).toContain('!dist/cli/**');
    expect(files).toContain('node_modules/better-sqlite3/prebuilds/${platform}-${arch}.node');
    expect(files.filter((f) => f.includes('prebuilds'))).toHaveLength(1);
    expect(files).toContain('node_modules/@parcel/watcher-${platform}-${arch}*/**');
    expect(files).toContain('node_modules/@napi-rs/keyring-${platform}-${arch}*/**');
    expect(files).toContain('node_modules/@ffmpeg-installer/${platform}-${arch}/**');
    expect(files).toContain('node_modules/@ffprobe-installer/${platform}-${arch}/**');
    // Windows on Arm runs the x64 ffmpeg: the Windows section adds that package.
    expect((config.win as { files?: string[] }).files).toEqual([
      'node_modules/@ffmpeg-installer/win32-x64/**',
      'node_modules/@ffprobe-installer/win32-x64/**',
    ]);
    expect(config.asarUnpack).toEqual([
      '**/*.node',
      'node_modules/@ffmpeg-installer/*/ffmpeg*',
      'node_modules/@ffprobe-installer/*/ffprobe*',
    ]);
    expect(config.asar).toEqual({ smartUnpack: false });
    expect(config.npmRebuild).toBe(false);
    expect(config.afterPack).toBe('build/after-pack.mjs');
    expect(existsSync(join(root, String(config.afterPack)))).toBe(true);
    // Every runtime dependency that is not native is bundled by esbuild, so none is needed in the package.
    const build = readFileSync(join(root, 'electron/main/build.mjs'), 'utf8');
    expect(build).toMatch(/NATIVE = \['better-sqlite3', '@napi-rs\/keyring', '@parcel\/watcher'\]/);
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
