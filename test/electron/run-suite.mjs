// The desktop suite (test/electron) as a step of `npm test` and as `npm run test:electron`. Where Electron's
// binary is absent it prints one line saying so and why, and runs nothing: never counted as passed.
// DUBDESK_REQUIRE_ELECTRON=1 (CI) makes that a failure instead.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { electronBinary, ROOT } from './binary.mjs';

const found = electronBinary();
if ('missing' in found) {
  const line = `desktop suite (test/electron) skipped: ${found.missing}; once it is: npm run test:electron`;
  if (process.env.DUBDESK_REQUIRE_ELECTRON === '1') {
    console.error(line.replace('skipped', 'cannot run'));
    process.exit(1);
  }
  console.log(line);
  process.exit(0);
}

const run = (args) => spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' }).status ?? 1;
// The suite drives the app as built (dist/): the renderer, then the main process, preload and engine.
const vite = join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
if (run([vite, 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'error']) !== 0) process.exit(1);
if (run(['electron/main/build.mjs']) !== 0) process.exit(1);
const vitest = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
process.exit(run([vitest, 'run', '--config', 'test/electron/vitest.config.ts', ...process.argv.slice(2)]));
