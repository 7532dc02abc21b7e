/** The utility process's entry (bundled as dist/electron/engine.cjs): the engine, away from the window. */
// The native watcher loads first, not when a folder is first watched (as the CLI loads it): an app packaged
// without its platform's prebuild fails at start, saying which package is missing, not days later.
import '@parcel/watcher';
import { serveEngine } from './engine-process';
import type { ToEngine } from './engine-protocol';

const parent = process.parentPort;
serveEngine(
  {
    post: (message) => parent.postMessage(message),
    listen: (handler) => parent.on('message', (e) => handler(e.data as ToEngine)),
  },
  () => process.exit(0),
);
