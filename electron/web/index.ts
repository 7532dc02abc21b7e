/**
 * The browser face's one entry (`dubdesk serve`): the HTTP server that serves the renderer and the contract
 * on 127.0.0.1, the worker that keeps the queue moving while it runs, and what opens the page. The CLI
 * starts it through this file alone.
 */
export { LOOPBACK } from './loopback';
export { openBrowser } from './open-browser';
export { rendererDir } from './renderer-files';
export { announceServer, runningServers, type RunningServer } from './running-servers';
export { OPENED_CODE_TTL_MS, PRINTED_CODE_TTL_MS, type CodeEnd } from './session-codes';
export { startServer, type DubdeskServer, type ServeOptions } from './server';
export { workQueue } from './worker';
