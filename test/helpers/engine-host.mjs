// Runs a built engine bundle (dist/electron/engine.cjs) under Node the way Electron's utility process runs
// it: `process.parentPort` carries the messages, here over Node's IPC channel (structured clones, as
// Electron's port sends them). Usage: fork(this file, [engine.cjs], { serialization: 'advanced' }).
import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';

const port = Object.assign(new EventEmitter(), {
  postMessage: (message) => process.send(message),
});
process.on('message', (data) => port.emit('message', { data }));
process.parentPort = port;
createRequire(import.meta.url)(process.argv[2]);
