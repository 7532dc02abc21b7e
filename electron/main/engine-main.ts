/** The utility process's entry (bundled as dist/electron/engine.cjs): the engine, away from the window. */
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
