// The native parts each target of electron-builder.yml needs, and the check that a package carries them.
// The same goes for the ffmpeg and ffprobe Dubdesk ships (@ffmpeg-installer/*, @ffprobe-installer/*: one
// package per system and processor, the binary inside; Windows on Arm runs the x64 build under emulation).
// npm installs only this machine's platform packages of @parcel/watcher and @napi-rs/keyring, so an x64 Mac
// package made on an arm64 Mac (or arm64 Windows on x64) shipped none, and the engine died at load. Every
// pack is checked (build/after-pack.mjs): the target's binaries are there, built for its processor, and no
// other target's are. The other processor's packages are installed before packing with:
//
//   node build/natives.mjs install <darwin|win32|linux> <x64|arm64>
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { gunzipSync } from 'node:zlib';

const ROOT = join(import.meta.dirname, '..');

/** The processor a target's ffmpeg is built for: Windows on Arm has no build of its own. */
export const ffmpegArch = (platform, arch) => (platform === 'win32' && arch === 'arm64' ? 'x64' : arch);

/** The folders holding the shipped ffmpeg and ffprobe, one package per target. */
export const MEDIA_TOOL_SCOPES = ['@ffmpeg-installer', '@ffprobe-installer'];

/**
 * The native files a target loads, as paths under node_modules; `pkg` is the npm package holding one when
 * it is a per-platform package of its own (better-sqlite3 ships every prebuild inside itself); `tool` marks
 * an executable (ffmpeg, ffprobe), and `builtFor` the processor it is built for when not the target's.
 * @param {string} platform darwin, win32 or linux
 * @param {string} arch x64 or arm64
 * @returns {{ file: string, pkg: string | null, tool?: boolean, builtFor?: string }[]}
 */
export function nativesFor(platform, arch) {
  const libc = platform === 'linux' ? '-glibc' : '';
  const abi = { linux: '-gnu', win32: '-msvc', darwin: '' }[platform] ?? '';
  const watcher = `@parcel/watcher-${platform}-${arch}${libc}`;
  const keyring = `@napi-rs/keyring-${platform}-${arch}${abi}`;
  const toolArch = ffmpegArch(platform, arch);
  const exe = platform === 'win32' ? '.exe' : '';
  const tools = ['ffmpeg', 'ffprobe'].map((name) => {
    const pkg = `@${name}-installer/${platform}-${toolArch}`;
    return {
      file: `${pkg}/${name}${exe}`,
      pkg,
      tool: true,
      ...(toolArch !== arch ? { builtFor: toolArch } : {}),
    };
  });
  return [
    { file: `better-sqlite3/prebuilds/${platform}-${arch}.node`, pkg: null },
    { file: `${watcher}/watcher.node`, pkg: watcher },
    { file: `${keyring}/keyring.${platform}-${arch}${abi}.node`, pkg: keyring },
    ...tools,
  ];
}

/** Executable formats and processors, as their headers give them. */
const ELF = { 62: 'x64', 183: 'arm64', 40: 'arm', 3: 'ia32' };
const MACHO = { 0x01000007: 'x64', 0x0100000c: 'arm64', 7: 'ia32' };
const PE = { 0x8664: 'x64', 0xaa64: 'arm64', 0x14c: 'ia32' };

/**
 * The system and processor a native binary is built for, read from its header.
 * @param {Buffer} head its first 4 KB
 * @returns {{ platform: string, arch: string } | null}
 */
export function binaryTarget(head) {
  if (head.length >= 20 && head.readUInt32BE(0) === 0x7f454c46)
    return { platform: 'linux', arch: ELF[head.readUInt16LE(18)] ?? 'unknown' };
  if (head.length >= 8 && head.readUInt32LE(0) === 0xfeedfacf)
    return { platform: 'darwin', arch: MACHO[head.readUInt32LE(4)] ?? 'unknown' };
  // A universal (fat) Mach-O: every processor it holds.
  if (head.length >= 8 && head.readUInt32BE(0) === 0xcafebabe) {
    const count = Math.min(head.readUInt32BE(4), 8);
    const archs = Array.from({ length: count }, (_, i) => MACHO[head.readUInt32BE(8 + i * 20)] ?? 'unknown');
    return { platform: 'darwin', arch: archs.join('+') };
  }
  if (head.length >= 64 && head.toString('latin1', 0, 2) === 'MZ') {
    const pe = head.readUInt32LE(60);
    if (pe + 6 <= head.length && head.toString('latin1', pe, pe + 4) === 'PE\0\0')
      return { platform: 'win32', arch: PE[head.readUInt16LE(pe + 4)] ?? 'unknown' };
  }
  return null;
}

function headOf(file) {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(4096);
    return head.subarray(0, readSync(fd, head, 0, head.length, 0));
  } finally {
    closeSync(fd);
  }
}

function nodeFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.node'))
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile());
}

/** The ffmpeg and ffprobe packages under `modules` (only their platform packages hold a binary). */
function mediaToolFolders(modules) {
  return MEDIA_TOOL_SCOPES.flatMap((scope) => {
    const dir = join(modules, scope);
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((name) => name !== 'ffmpeg' && name !== 'ffprobe')
      .map((name) => `${scope}/${name}`);
  });
}

const executable = (path) => process.platform === 'win32' || (statSync(path).mode & 0o111) !== 0;

const runsOn = (built, platform, arch) =>
  built?.platform === platform && built.arch.split('+').includes(arch);

/**
 * What is wrong with the native parts under `modules` for a target: its binaries that are missing, those
 * built for another system or processor and, in a package (`onlyOwn`), other targets' binaries.
 * @returns {string[]} one line per problem; none when the package is right
 */
export function nativeProblems(modules, platform, arch, onlyOwn = true) {
  const problems = [];
  const wanted = nativesFor(platform, arch);
  for (const { file, pkg, tool, builtFor } of wanted) {
    const path = join(modules, file);
    if (!existsSync(path)) {
      problems.push(`missing ${pkg ?? file} (${file})`);
      continue;
    }
    const built = binaryTarget(headOf(path));
    if (!runsOn(built, platform, builtFor ?? arch))
      problems.push(`${file} is built for ${built ? `${built.platform} ${built.arch}` : 'no known system'}`);
    else if (tool && platform !== 'win32' && !executable(path)) problems.push(`${file} is not executable`);
  }
  if (!onlyOwn) return problems;
  const own = new Set(wanted.map((w) => join(modules, w.file)));
  for (const path of nodeFiles(modules))
    if (!own.has(path) && !runsOn(binaryTarget(headOf(path)), platform, arch))
      problems.push(`${relative(modules, path).split(sep).join('/')} belongs to another target`);
  const ownTools = new Set(wanted.filter((w) => w.tool).map((w) => w.pkg));
  for (const folder of mediaToolFolders(modules))
    if (!ownTools.has(folder)) problems.push(`${folder} belongs to another target`);
  return problems;
}

/** The command that installs a target's platform packages beside this machine's. */
export const installCommand = (platform, arch) => `node build/natives.mjs install ${platform} ${arch}`;

/** Throws, naming every problem and the fix, when the package under `modules` is wrong for its target. */
export function assertNatives(modules, platform, arch, onlyOwn = true) {
  const problems = nativeProblems(modules, platform, arch, onlyOwn);
  if (!problems.length) return;
  throw new Error(
    `The ${platform} ${arch} package lacks the right native modules: without them the engine cannot load.\n` +
      problems.map((p) => `  - ${p}`).join('\n') +
      `\nInstall that target's packages before packing: ${installCommand(platform, arch)}`,
  );
}

/** The version the lock file holds of a platform package, from its parent's optionalDependencies. */
function versionOf(pkg) {
  const parent = pkg.startsWith('@parcel/')
    ? '@parcel/watcher'
    : pkg.startsWith('@ffmpeg-installer/')
      ? '@ffmpeg-installer/ffmpeg'
      : pkg.startsWith('@ffprobe-installer/')
        ? '@ffprobe-installer/ffprobe'
        : '@napi-rs/keyring';
  const meta = JSON.parse(readFileSync(join(ROOT, 'node_modules', parent, 'package.json'), 'utf8'));
  const version = meta.optionalDependencies?.[pkg];
  if (!version) throw new Error(`${parent} has no ${pkg} for this target`);
  return version;
}

/**
 * Unpacks an npm tarball's `package/` folder into `into` (regular files and folders; a pax header may carry
 * a long name). Node has no tar reader, and the `tar` on a Windows runner's PATH may read `C:` as a host.
 */
export function untar(tar, into) {
  let longName = null;
  for (let at = 0; at + 512 <= tar.length;) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const text = (from, to) => header.toString('utf8', from, to).replace(/\0.*$/s, '');
    const size = Number.parseInt(text(124, 136).trim() || '0', 8);
    const type = String.fromCharCode(header[156] || 48);
    const body = tar.subarray(at + 512, at + 512 + size);
    const prefix = text(345, 500);
    const name = longName ?? (prefix ? `${prefix}/${text(0, 100)}` : text(0, 100));
    longName = null;
    if (type === 'x') longName = /(?:^|\n)\d+ path=([^\n]+)\n/.exec(body.toString('utf8'))?.[1] ?? null;
    const inside = name.split('/').slice(1).join('/');
    const path = join(into, inside);
    if (inside && !inside.split('/').includes('..')) {
      if (type === '5') mkdirSync(path, { recursive: true });
      else if (type === '0' || type === '7') {
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, body, { mode: Number.parseInt(text(100, 108).trim() || '644', 8) & 0o755 });
      }
    }
    at += 512 + Math.ceil(size / 512) * 512;
  }
}

/**
 * Puts a target's platform packages beside this machine's, as npm would have installed them there, without
 * touching package.json, the lock or this machine's own (an `npm install --cpu=…` would prune those): each
 * is fetched with `npm pack` (checked against the registry's integrity) and unpacked into node_modules.
 */
export function installNatives(platform, arch) {
  const missing = nativesFor(platform, arch).filter(
    ({ pkg }) => pkg && !existsSync(join(ROOT, 'node_modules', pkg, 'package.json')),
  );
  const work = mkdtempSync(join(tmpdir(), 'dubdesk-natives-'));
  const windows = process.platform === 'win32';
  try {
    return missing.map(({ pkg }) => {
      const spec = `${pkg}@${versionOf(pkg)}`;
      const packed = execFileSync(
        windows ? 'npm.cmd' : 'npm',
        ['pack', spec, '--pack-destination', work, '--loglevel=warn'],
        {
          cwd: work,
          encoding: 'utf8',
          shell: windows,
        },
      )
        .trim()
        .split('\n')
        .at(-1);
      untar(gunzipSync(readFileSync(join(work, packed))), join(ROOT, 'node_modules', pkg));
      // Their own install script makes the binary executable (ffprobe's tarball has it 0644); npm pack ran none.
      for (const n of nativesFor(platform, arch))
        if (n.tool && n.pkg === pkg) chmodSync(join(ROOT, 'node_modules', n.file), 0o755);
      return spec;
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function main([command, platform, arch, dir]) {
  if (command === 'install' && platform && arch) {
    const installed = installNatives(platform, arch);
    console.log(
      installed.length ? `installed ${installed.join(', ')}` : `${platform} ${arch}: nothing to install`,
    );
  } else if (command === 'check' && platform && arch) {
    // The project's node_modules holds every target's better-sqlite3 prebuild; a package, only its own.
    assertNatives(dir ?? join(ROOT, 'node_modules'), platform, arch, dir !== undefined);
    console.log(`${platform} ${arch}: the native modules are there`);
  } else {
    console.error(
      'usage: node build/natives.mjs install|check <darwin|win32|linux> <x64|arm64> [node_modules]',
    );
    process.exitCode = 2;
  }
}

if (process.argv[1] === import.meta.filename) {
  try {
    main(process.argv.slice(2));
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    process.exitCode = 1;
  }
}
