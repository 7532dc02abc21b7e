import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkAdmin } from './admin-auth';
import { drainBody } from './body';
import type { Faults } from './faults';
import { HttpError } from './http-error';
import { callerKey, quotingKey } from './key-quote';
import { dropConnection, sendError, type Ctx, type Route } from './http';
import type { SandboxState } from './state';

export interface DispatchDeps {
  routes: Route[];
  state: SandboxState;
  faults: Faults;
  adminToken: string;
  maxUploadBytes: number;
  /** The sandbox's own base URL: every link it hands out starts with it. */
  origin: () => string;
  /** Resolves once every change so far is saved: answers wait for it, so nothing answered is ever lost. */
  durable: () => Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function gone(req: IncomingMessage, res: ServerResponse): boolean {
  return res.destroyed || res.writableEnded || (req.destroyed && !req.complete);
}

/**
 * The request handler. It never throws and never leaves a promise rejected: whatever a request does (breaks
 * off, lies about its length, vanishes during a sleep), the process keeps serving everyone else.
 */
export function createDispatcher(deps: DispatchDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const { routes, state, faults } = deps;

  async function answerError(req: IncomingMessage, res: ServerResponse, e: unknown): Promise<void> {
    let err = e instanceof HttpError ? e : new HttpError(500, 'Internal server error');
    const key = callerKey(req);
    if (key && faults.roll('rateQuoteKey'))
      err = new HttpError(err.status, quotingKey(err.message, key), err.extra);
    if (!(e instanceof HttpError)) console.error('[sandbox]', e);
    // An error answer can report work done (v2 create's 502 names the dub it made): save that first.
    await deps.durable();
    if (gone(req, res)) return;
    // The body may still be arriving. Past the size limit (413) answer at once and close the connection;
    // otherwise (401, 402, 400 before the upload was read) read it to the end first, as servers usually
    // do, so the client reliably sees the answer instead of a reset in the middle of its upload.
    if (!req.complete && err.status !== 413 && (await drainBody(req, deps.maxUploadBytes + 1024 * 1024))) {
      sendError(res, err);
      return;
    }
    if (req.complete) {
      sendError(res, err);
      return;
    }
    res.shouldKeepAlive = false;
    const socket = req.socket;
    sendError(res, err);
    // Give the answer a moment to leave before the unread rest of the upload is cut off.
    res.once('finish', () => setTimeout(() => socket?.destroy(), 50).unref());
  }

  async function dispatch(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', deps.origin());
    } catch {
      throw new HttpError(400, 'Malformed request target');
    }
    const pathMatches = routes.filter((r) => r.pattern.test(url.pathname));
    const found = pathMatches.find((r) => r.method === req.method);
    if (!found) {
      throw pathMatches.length
        ? new HttpError(405, `Method ${req.method} not allowed`)
        : new HttpError(404, `No endpoint at ${url.pathname.slice(0, 200)}`);
    }
    state.requests.set(found.name, (state.requests.get(found.name) ?? 0) + 1);
    if (found.kind === 'admin') checkAdmin(req, deps.adminToken);
    if (found.kind !== 'public' && found.kind !== 'admin') {
      if (faults.latencyMs > 0) await sleep(faults.latencyMs);
      if (gone(req, res)) return;
      if (faults.roll('rateReset')) {
        dropConnection({ req, res });
        return;
      }
    }
    const ctx: Ctx = {
      req,
      res,
      url,
      params: { ...found.pattern.exec(url.pathname)?.groups },
      origin: deps.origin(),
      durable: deps.durable,
      shouldLoseResponse: () =>
        (found.kind === 'api-mutating' ||
          found.kind === 'api-create' ||
          (found.kind === 'storage' && req.method === 'PUT')) &&
        faults.roll('rateLostResponse'),
    };
    if ((found.kind === 'api' || found.kind === 'api-mutating') && faults.roll('rate502')) {
      throw new HttpError(502, 'Processing backend unavailable');
    }
    await found.handler(ctx);
  }

  return (req, res) => {
    // Errors of the streams themselves (a reset socket, a write after the peer left) are expected here;
    // each path that reads or writes settles on its own, so these listeners only keep them from crashing.
    req.on('error', () => undefined);
    res.on('error', () => undefined);
    // The service's own clock (skewed on purpose by a fault), as a real server's `Date` header tells it.
    res.setHeader('date', new Date(state.now()).toUTCString());
    dispatch(req, res)
      .catch((e: unknown) => answerError(req, res, e))
      .catch((e: unknown) => {
        console.error('[sandbox] could not answer', e);
        dropConnection({ req, res });
      });
  };
}
