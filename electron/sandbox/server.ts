import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkAdmin, newAdminToken } from './admin-auth';
import { Faults } from './faults';
import { HttpError, sendError, type Ctx, type Route } from './http';
import { SandboxOptions, type FaultSettings, type SandboxOptionsInput } from './options';
import { Pipeline } from './pipeline';
import { adminRoutes, publicRoutes } from './routes/public';
import { LEGACY_ROOT, legacyRoutes } from './routes/legacy';
import { storageRoutes } from './routes/storage';
import { v1Routes } from './routes/v1';
import { v2Routes } from './routes/v2';
import { SandboxService } from './service';
import { UrlSigner } from './signing';
import { SandboxState, type SandboxAccount } from './state';

export interface Sandbox {
  /** `{base_url}`: v1, v2 and the language list live under it. */
  readonly baseUrl: string;
  /** `{legacy_api_url}`: legacy calls go to `${legacyUrl}/v1/...`. */
  readonly legacyUrl: string;
  readonly port: number;
  /** Required in `x-sandbox-admin` by the `/__sandbox/*` test controls. */
  readonly adminToken: string;
  readonly state: SandboxState;
  readonly faults: Faults;
  /** The first account (from `apiKey` / `balance`). */
  readonly account: SandboxAccount;
  setFaults(patch: Partial<FaultSettings>): FaultSettings;
  /** Moves the sandbox's clock forward: links expire and pipelines advance without waiting. */
  advanceClock(seconds: number): void;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Reads and discards the rest of a request body; false if it runs past `limit` bytes or breaks. */
function drained(req: IncomingMessage, limit: number): Promise<boolean> {
  return new Promise((resolve) => {
    let seen = 0;
    req.on('data', (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > limit) {
        req.pause();
        resolve(false);
      }
    });
    req.once('end', () => resolve(true));
    req.once('error', () => resolve(false));
    req.resume();
  });
}

export async function startSandbox(input: SandboxOptionsInput = {}): Promise<Sandbox> {
  const options = SandboxOptions.parse(input);
  const adminToken = options.adminToken ?? newAdminToken();
  const ownDir = !options.dataDir;
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'dubdesk-sandbox-')));
  await mkdir(join(dataDir, 'uploads'), { recursive: true });

  const state = new SandboxState();
  const account = state.addAccount(options.apiKey, options.balance);
  for (const u of options.users) state.addAccount(u.apiKey, u.seconds);
  const faults = new Faults(options.faults, options.seed);
  const pipeline = new Pipeline(state, faults, options.pipelineSeconds * 1000, join(dataDir, 'artifacts'));
  const svc = new SandboxService(options, state, pipeline, faults, new UrlSigner(() => state.now()), dataDir);
  const routes: Route[] = [
    ...publicRoutes(),
    ...v2Routes(svc),
    ...v1Routes(svc),
    ...legacyRoutes(svc),
    ...storageRoutes(svc),
    ...adminRoutes(svc),
  ];

  const server: Server = createServer((req, res) => {
    void dispatch(req, res);
  });
  let origin = '';

  async function dispatch(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', origin);
    pipeline.advanceAll();
    let params: Record<string, string> | undefined;
    const pathMatches = routes.filter((r) => r.pattern.test(url.pathname));
    const found = pathMatches.find((r) => r.method === req.method);
    if (found) {
      params = { ...found.pattern.exec(url.pathname)?.groups };
      state.requests.set(found.name, (state.requests.get(found.name) ?? 0) + 1);
    }
    if (!found) {
      req.resume();
      sendError(
        res,
        pathMatches.length
          ? new HttpError(405, `Method ${req.method} not allowed`)
          : new HttpError(404, `No endpoint at ${url.pathname}`),
      );
      return;
    }
    if (found.kind === 'admin') {
      try {
        checkAdmin(req, adminToken);
      } catch (e) {
        req.resume();
        sendError(res, e as HttpError);
        return;
      }
    }
    if (found.kind !== 'public' && found.kind !== 'admin') {
      if (faults.latencyMs > 0) await sleep(faults.latencyMs);
      if (faults.roll('rateReset')) {
        req.socket.destroy();
        return;
      }
    }
    const ctx: Ctx = {
      req,
      res,
      url,
      params: params ?? {},
      origin,
      shouldLoseResponse: () =>
        (found.kind === 'api-mutating' ||
          found.kind === 'api-create' ||
          (found.kind === 'storage' && req.method === 'PUT')) &&
        faults.roll('rateLostResponse'),
    };
    try {
      if ((found.kind === 'api' || found.kind === 'api-mutating') && faults.roll('rate502')) {
        throw new HttpError(502, 'Processing backend unavailable');
      }
      await found.handler(ctx);
    } catch (e) {
      const err = e instanceof HttpError ? e : new HttpError(500, 'Internal server error');
      if (!(e instanceof HttpError)) console.error('[sandbox]', e);
      // The body may still be arriving. Past the size limit (413) answer at once and close the connection;
      // otherwise (401, 402, 400 before the upload was read) read it to the end first, as servers usually
      // do, so the client reliably sees the answer instead of a reset in the middle of its upload.
      if (!req.complete && err.status !== 413 && (await drained(req, options.maxUploadBytes + 1024 * 1024))) {
        sendError(res, err);
        return;
      }
      if (!req.complete) res.setHeader('connection', 'close');
      sendError(res, err);
      if (!req.complete) res.on('finish', () => setTimeout(() => req.socket.destroy(), 50));
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  origin = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
  pipeline.start();

  return {
    baseUrl: origin,
    legacyUrl: `${origin}${LEGACY_ROOT}`,
    port,
    adminToken,
    state,
    faults,
    account,
    setFaults: (patch) => faults.set(patch),
    advanceClock(seconds) {
      state.clockOffsetMs += seconds * 1000;
      pipeline.advanceAll();
    },
    async stop() {
      pipeline.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await pipeline.idle();
      if (ownDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
