import Fastify, { type FastifyServerOptions } from 'fastify';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import type { DubdeskApi } from '../../shared/contract/methods';
import { CODE_FRAGMENT_KEY } from '../../shared/serve-protocol';
import { contractErrors } from './errors';
import { eventRoutes, type EventStreams } from './events';
import { guardRequests } from './guard';
import { bodyIdleLimit, headersDeadline, IDLE_TIMEOUTS, type IdleTimeouts } from './idle-limits';
import { LOOPBACK } from './loopback';
import { mediaRoutes } from './media';
import { resultsZipRoute } from './results-zip';
import { MediaTokens, mediaTokenRoute } from './media-tokens';
import { METHOD_BODY_LIMIT, methodRoutes } from './methods';
import { staticRoutes } from './static';
import { stagingRoutes } from './staging';
import type { FolderEnv } from './downloads-folder';
import { uploadsFolderRoute } from './uploads-route';
import { withUploadsFolder } from './uploads-folder';
import { sweepStaging } from './staging-sweep';
import { BrowserSessions } from './browser-sessions';
import {
  OPENED_CODE_TTL_MS,
  PRINTED_CODE_TTL_MS,
  SessionCodes,
  sessionRoutes,
  type CodeEnd,
} from './session-codes';
import { newToken } from './token';
import { writeRedirectFile } from './redirect-file';

const SWEEP_EVERY_MS = 10 * 60 * 1000;
const STAGING_RETENTION_MS = 60 * 60 * 1000;

export interface ServeOptions {
  /** The engine: its contract, and its data folder (staging lives there). */
  engine: { api: DubdeskApi; home: string };
  /** 0 picks a free port. */
  port: number;
  /** The built renderer; null serves the API alone (tests of the protocol). */
  rendererDir: string | null;
  /** Where request logs go (paths only: never a query string, a header or a token). */
  log?: { stream: Writable; level: 'debug' | 'info' | 'warn' | 'error' };
  maxStagedBytes?: number;
  /** Everything staged at most (default: STAGING_LIMITS). */
  maxStagedTotalBytes?: number;
  /** What staging leaves free on the disk of the data folder (default: STAGING_LIMITS). */
  stagingDiskMarginBytes?: number;
  /** Uploads under way at once (default: STAGING_LIMITS). */
  maxConcurrentUploads?: number;
  /** How long an unused staged file is kept (see sweepStaging). */
  stagingRetentionMs?: number;
  /** Time between two heartbeat comments on an event stream. */
  heartbeatMs?: number;
  /** Where the user's Downloads folder is looked for (tests give a temporary home). */
  folders?: FolderEnv;
  /** The clock one-time codes expire by (tests move it). */
  clock?: () => number;
  /** How long a request's headers, and its body, may stall (default: IDLE_TIMEOUTS). */
  idleTimeouts?: Partial<IdleTimeouts>;
}

export interface DubdeskServer {
  /** An address to open: each read carries a fresh one-time code (good for a minute) in its fragment. */
  readonly url: string;
  /** An address whose one-time code is good once, for `ttlMs`: the page trades it for the session token. */
  newAddress(ttlMs: number): string;
  /**
   * A private file (redirect-file.ts) that sends the browser to an address with a fresh code, for `ttlMs`;
   * the browser is opened on its path, so no command line holds the code. Deleted once the code is traded,
   * once it expires, and when serve stops; `ended` then says which.
   */
  newRedirectFile(ttlMs: number, ended?: (end: CodeEnd) => void): Promise<string>;
  readonly origin: string;
  readonly port: number;
  /** The listening socket's own address. */
  readonly address: AddressInfo;
  /** The session token: it travels in request headers only, never in an address. */
  readonly token: string;
  readonly events: EventStreams;
  /** Removes staged files no job needs any more (also runs by itself every ten minutes). */
  sweepStaging(retentionMs?: number): Promise<string[]>;
  /** Ends event streams, finishes requests in flight, stops listening. */
  close(): Promise<void>;
}

function loggerOptions(log: ServeOptions['log']): FastifyServerOptions['logger'] {
  if (!log) return false;
  return {
    level: log.level,
    stream: log.stream,
    serializers: {
      req: (req: { method: string; url: string }) => ({ method: req.method, path: req.url.split('?', 1)[0] }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  };
}

/** `dubdesk serve`'s HTTP server: the renderer, the contract, events, staging and media, on 127.0.0.1. */
export async function startServer(opts: ServeOptions): Promise<DubdeskServer> {
  const { api, home } = opts.engine;
  const token = newToken();
  const mediaTokens = new MediaTokens();
  const downloadTokens = new MediaTokens();
  const codes = new SessionCodes(opts.clock);
  let port = 0;
  const sessions = new BrowserSessions(() => port);
  const stagingRoot = join(home, 'staging');
  const uploading = new Set<string>();
  const idle = { ...IDLE_TIMEOUTS, ...opts.idleTimeouts };
  const app = Fastify({
    http: headersDeadline(idle),
    logger: loggerOptions(opts.log),
    bodyLimit: METHOD_BODY_LIMIT,
    trustProxy: false,
    return503OnClosing: true,
  });
  // Contract bodies are JSON only: a text/plain POST is what a cross-site form could send without asking.
  app.removeContentTypeParser('text/plain');

  bodyIdleLimit(app, idle.bodyMs);
  guardRequests(app, { token, sessions, mediaTokens, downloadTokens, port: () => port });
  contractErrors(app);
  sessionRoutes(app, codes, token, sessions, () => newAddress(PRINTED_CODE_TTL_MS));
  methodRoutes(app, withUploadsFolder(api, stagingRoot, opts.folders));
  uploadsFolderRoute(app, api, opts.folders);
  mediaTokenRoute(app, mediaTokens, downloadTokens);
  const events = eventRoutes(app, api, opts.heartbeatMs);
  const limits = {
    maxBytes: opts.maxStagedBytes,
    maxTotalBytes: opts.maxStagedTotalBytes,
    diskMarginBytes: opts.stagingDiskMarginBytes,
    maxUploads: opts.maxConcurrentUploads,
  };
  stagingRoutes(
    app,
    {
      root: stagingRoot,
      limits: Object.fromEntries(Object.entries(limits).filter(([, v]) => v !== undefined)),
    },
    uploading,
  );
  mediaRoutes(app, api);
  resultsZipRoute(app, api);
  if (opts.rendererDir) await staticRoutes(app, opts.rendererDir);
  // Streams never end by themselves: end them first, or closing would wait for them forever.
  app.addHook('preClose', async () => events.closeAll());

  await app.listen({ host: LOOPBACK, port: opts.port });
  const address = app.server.address() as AddressInfo;
  port = address.port;
  const origin = `http://${LOOPBACK}:${port}`;

  const sweep = (retentionMs = opts.stagingRetentionMs ?? STAGING_RETENTION_MS) =>
    sweepStaging({ root: stagingRoot, api, active: uploading, retentionMs });
  const sweeper = setInterval(() => void sweep(), SWEEP_EVERY_MS);
  sweeper.unref();
  void sweep();

  const addressWith = (code: string) => `${origin}/#${CODE_FRAGMENT_KEY}=${code}`;
  const newAddress = (ttlMs: number) => addressWith(codes.mint(ttlMs));
  const redirects = new Set<Promise<unknown>>();
  const newRedirectFile = async (ttlMs: number, ended?: (end: CodeEnd) => void) => {
    let remove = async () => {};
    let removed = false;
    const gone = (end: CodeEnd) => {
      removed = true;
      ended?.(end);
      const done = remove().catch(() => undefined);
      redirects.add(done);
      void done.finally(() => redirects.delete(done));
    };
    const code = codes.mint(ttlMs, gone);
    const file = await writeRedirectFile(home, addressWith(code));
    remove = file.remove;
    // Traded while the file was being written: it goes now. Otherwise at its code's end at the latest.
    if (removed) await file.remove();
    else setTimeout(() => codes.expireDue(), ttlMs + 1).unref();
    return file.path;
  };
  return {
    get url() {
      return newAddress(OPENED_CODE_TTL_MS);
    },
    newAddress,
    newRedirectFile,
    origin,
    port,
    address,
    token,
    events,
    sweepStaging: sweep,
    close: async () => {
      clearInterval(sweeper);
      codes.clear();
      sessions.clear();
      await Promise.all(redirects);
      await app.close();
    },
  };
}
