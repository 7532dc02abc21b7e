/**
 * The kept library's floor under the idle bench's catch-up: chokidar alone, in a fresh process, watching
 * the same trees as the engine does (events, recursive, symlinks not followed) until it is ready. Its
 * start walks every file and lstats it (it keeps a stat per path to verify events), so no watcher built
 * on it can be watching sooner.
 */
import { watch } from 'chokidar';

const roots = JSON.parse(process.argv[2] ?? '[]') as string[];
const t0 = performance.now();
const watchers = roots.map((root) =>
  watch(root, {
    persistent: false,
    followSymlinks: false,
    ignorePermissionErrors: true,
    ignored: () => false,
  }),
);
await Promise.all(watchers.map((w) => new Promise<void>((resolve) => w.once('ready', () => resolve()))));
const readyMs = performance.now() - t0;
await Promise.all(watchers.map((w) => w.close()));
process.stdout.write(`${JSON.stringify({ readyMs })}\n`);
