// `npm start`: the built app in Electron, after the checks that would otherwise end in Chromium's FATAL
// line. Electron 45 downloads its binary on first use (`npx install-electron`); on Ubuntu 23.10+ AppArmor
// forbids the user namespaces Chromium's sandbox needs unless node_modules' chrome-sandbox is root-owned and
// setuid, which npm cannot make it. Arguments after `npm start --` go to Electron (`--no-sandbox`, files).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const ELECTRON = join(ROOT, 'node_modules', 'electron');

/** Where Electron's binary is, downloading it first when it is not there yet (as `require('electron')` would). */
function electronBinary(env) {
  const name = () =>
    existsSync(join(ELECTRON, 'path.txt')) ? readFileSync(join(ELECTRON, 'path.txt'), 'utf8').trim() : null;
  if (env.ELECTRON_OVERRIDE_DIST_PATH) {
    const path = join(env.ELECTRON_OVERRIDE_DIST_PATH, name() ?? 'electron');
    return existsSync(path) ? { path } : { missing: `ELECTRON_OVERRIDE_DIST_PATH has no Electron (${path})` };
  }
  if (!name() || !existsSync(join(ELECTRON, 'dist', name()))) {
    console.log("Downloading Electron's binary (once, about 100 MB)...");
    const r = spawnSync(process.execPath, [join(ELECTRON, 'install.js')], { stdio: 'inherit', env });
    if (r.status !== 0 || !name())
      return {
        missing:
          "Electron's binary could not be downloaded. Run `npx install-electron` where Electron's releases (or ELECTRON_MIRROR) can be reached, " +
          'or set ELECTRON_OVERRIDE_DIST_PATH to an unpacked Electron 45',
      };
  }
  return { path: join(ELECTRON, 'dist', name()) };
}

/**
 * Why Chromium's sandbox cannot start here, with the fix; null when it can (or is switched off). Linux only:
 * either chrome-sandbox is root-owned and setuid, or the kernel lets unprivileged programs make user
 * namespaces (AppArmor's restriction off, or no such restriction).
 */
export function sandboxProblem({ platform, args, sandbox, usernsRestricted }) {
  if (platform !== 'linux' || args.includes('--no-sandbox')) return null;
  if (sandbox && sandbox.uid === 0 && (sandbox.mode & 0o4755) === 0o4755) return null;
  if (!usernsRestricted) return null;
  const helper = sandbox?.path ?? 'node_modules/electron/dist/chrome-sandbox';
  return [
    'Electron cannot start its sandbox on this Linux: AppArmor (Ubuntu 23.10 and later) does not let programs',
    `make user namespaces, and ${helper} is not root-owned and setuid, which npm cannot make it.`,
    'Fix it once for this checkout (it needs sudo):',
    `  sudo chown root:root ${helper} && sudo chmod 4755 ${helper}`,
    "Or, for development only, run without Chromium's sandbox:",
    '  npm start -- --no-sandbox',
    'Installed packages (deb, AppImage) need neither.',
  ].join('\n');
}

/** Whether the kernel refuses user namespaces to unprivileged programs (AppArmor, or Debian's old switch). */
export function usernsRestricted(read = (file) => readFileSync(file, 'utf8')) {
  const value = (file) => {
    try {
      return read(file).trim();
    } catch {
      return null;
    }
  };
  return (
    value('/proc/sys/kernel/apparmor_restrict_unprivileged_userns') === '1' ||
    value('/proc/sys/kernel/unprivileged_userns_clone') === '0'
  );
}

function main() {
  const args = process.argv.slice(2);
  const env = process.env;
  const binary = electronBinary(env);
  if ('missing' in binary) {
    console.error(`npm start: ${binary.missing}.`);
    process.exit(1);
  }
  const helper = join(dirname(binary.path), 'chrome-sandbox');
  const sandbox = existsSync(helper) ? { path: relative(ROOT, helper), ...statSync(helper) } : null;
  const restricted =
    env.DUBDESK_USERNS_RESTRICTED !== undefined ? env.DUBDESK_USERNS_RESTRICTED === '1' : usernsRestricted();
  const problem = sandboxProblem({ platform: process.platform, args, sandbox, usernsRestricted: restricted });
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
  const switches = args.filter((a) => a.startsWith('-'));
  const files = args.filter((a) => !a.startsWith('-'));
  const child = spawn(binary.path, [...switches, ROOT, ...files], { stdio: 'inherit', env });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

if (process.argv[1] === import.meta.filename) main();
