import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { newAdminToken } from './admin-auth';
import { makeFolder } from './make-folder';
import { SandboxStateError } from './persist/errors';
import { createDispatcher } from './dispatch';
import { Faults } from './faults';
import { listen } from './listen';
import { lockStateDir } from './persist/lock';
import { loadStateDir, removeOrphanUploads, restoreInto, StatePersister } from './persist/store';
import { ProcessPool } from './process-pool';
import { mediaTools } from '../media-tools/locate';
import type { Route } from './http';
import { SandboxOptions, type FaultPatch, type FaultSettings, type SandboxOptionsInput } from './options';
import { Pipeline } from './pipeline';
import { presenceRoutes } from './routes/presence';
import { adminRoutes, publicRoutes } from './routes/public';
import { LEGACY_ROOT, legacyRoutes } from './routes/legacy';
import { storageRoutes } from './routes/storage';
import { v1Routes } from './routes/v1';
import { v2Routes } from './routes/v2';
import { SandboxService } from './service';
import { systemResolver, type ResolveHost } from './source-url';
import { UrlSigner } from './signing';
import { SandboxState, type SandboxAccount } from './state';

export { SandboxInUseError, SandboxStateError } from './persist/errors';
export { findRunningSandbox, lookUpSandbox } from './persist/lock';

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
  /** Where the state is kept across restarts (absolute), or null when it lives only as long as this run. */
  readonly stateDir: string | null;
  /** The pool every ffprobe/ffmpeg goes through: `size`, and the `peak` of processes at once. */
  readonly media: Pick<ProcessPool, 'size' | 'peak' | 'started'>;
  setFaults(patch: FaultPatch): FaultSettings;
  /** Moves the sandbox's clock forward: links expire and pipelines advance without waiting. */
  advanceClock(seconds: number): void;
  /**
   * Stops taking connections and closes the idle ones; requests in flight may finish for up to `graceMs`
   * (0: they are cut at once). Presence connections end first, so whoever watches knows at once.
   */
  stop(graceMs?: number): Promise<void>;
}

/** Seams for tests that cannot be plain options: how source_url host names resolve. */
export interface SandboxHooks {
  resolveHost?: ResolveHost;
}

interface Persistence {
  persister: StatePersister;
  lock: Awaited<ReturnType<typeof lockStateDir>>;
  lastPort: number | null;
}

/** Reads the state directory into `state` and starts saving to it; null without a state directory. */
async function openStateDir(dir: string, state: SandboxState): Promise<Persistence & { secret: Buffer }> {
  const lock = await lockStateDir(dir);
  try {
    const loaded = await loadStateDir(dir);
    restoreInto(state, loaded, dir);
    await removeOrphanUploads(dir, loaded);
    if (loaded.meta) state.clockOffsetMs = loaded.meta.clockOffsetMs;
    const secret = loaded.meta ? Buffer.from(loaded.meta.signingSecret, 'hex') : randomBytes(32);
    const persister = new StatePersister(dir, state, {
      signingSecret: secret.toString('hex'),
      port: loaded.meta?.port ?? null,
    });
    state.listener = persister;
    if (!loaded.meta) persister.metaSaved();
    return { persister, lock, lastPort: loaded.meta?.port ?? null, secret };
  } catch (e) {
    await lock.release();
    throw e;
  }
}

export async function startSandbox(
  input: SandboxOptionsInput = {},
  hooks: SandboxHooks = {},
): Promise<Sandbox> {
  const options = SandboxOptions.parse(input);
  const adminToken = options.adminToken ?? newAdminToken();
  const stateDir = options.stateDir ? resolve(options.stateDir) : null;
  const ownDir = !stateDir && !options.dataDir;
  const dataDir = stateDir ?? options.dataDir ?? (await mkdtemp(join(tmpdir(), 'dubdesk-sandbox-')));
  await makeFolder(join(dataDir, 'uploads')).catch((e: unknown) => {
    throw new SandboxStateError(`Cannot create the sandbox's folder ${dataDir}: ${(e as Error).message}`);
  });

  const state = new SandboxState();
  const persistence = stateDir ? await openStateDir(stateDir, state) : null;
  // Accounts read back keep their balance; an account named in the options but not yet known is added.
  for (const u of [{ apiKey: options.apiKey, seconds: options.balance }, ...options.users]) {
    if (!state.accountByKey(u.apiKey)) state.addAccount(u.apiKey, u.seconds);
  }
  const account = state.accountByKey(options.apiKey);
  if (!account) throw new Error('the first account is missing');
  const faults = new Faults(options.faults, options.seed);
  state.skewMs = faults.get().clockSkewSeconds * 1000;
  faults.onChange = (f) => (state.skewMs = f.clockSkewSeconds * 1000);
  // Dubdesk's own ffmpeg first, as the engine's: an app opened from Finder or the Start menu has no PATH.
  const pool = new ProcessPool(options.ffmpeg ? (await mediaTools()).tools : null);
  const pipeline = new Pipeline(
    state,
    faults,
    options.pipelineSeconds * 1000,
    join(dataDir, 'artifacts'),
    pool,
  );
  const svc = new SandboxService(
    options,
    state,
    pipeline,
    faults,
    new UrlSigner(() => state.now(), persistence?.secret),
    dataDir,
    {
      resolve: hooks.resolveHost ?? systemResolver,
      allowPrivate: options.allowPrivateSourceUrls,
    },
  );
  const presence = new Set<ServerResponse>();
  const routes: Route[] = [
    ...publicRoutes(),
    ...v2Routes(svc),
    ...v1Routes(svc),
    ...legacyRoutes(svc),
    ...storageRoutes(svc),
    ...adminRoutes(svc),
    ...presenceRoutes(svc, presence),
  ];
  const durable = () => persistence?.persister.flush() ?? Promise.resolve();

  let origin = '';
  const server: Server = createServer(
    {
      // No deadline for a whole request (long uploads), but one for its head: without `headersTimeout`,
      // `requestTimeout: 0` would also switch that off and half-open connections would be held forever.
      requestTimeout: 0,
      headersTimeout: options.headersTimeoutMs,
      connectionsCheckingInterval: Math.min(5000, Math.max(50, options.headersTimeoutMs / 4)),
    },
    createDispatcher({
      routes,
      state,
      faults,
      adminToken,
      maxUploadBytes: options.maxUploadBytes,
      origin: () => origin,
      durable,
    }),
  );

  let port: number;
  try {
    port = await listen(
      server,
      options.host,
      options.port !== undefined
        ? { required: options.port }
        : { preferred: persistence?.lastPort ?? options.preferredPort ?? null },
    );
  } catch (e) {
    await persistence?.lock.release();
    throw e;
  }
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  origin = `http://${host === '0.0.0.0' ? '127.0.0.1' : host === '[::]' ? '[::1]' : host}:${port}`;
  svc.origin = origin;
  if (persistence) {
    persistence.persister.meta.port = port;
    persistence.persister.metaSaved();
    await persistence.lock.setUrl(origin);
    await durable();
  }
  pipeline.start();

  return {
    baseUrl: origin,
    legacyUrl: `${origin}${LEGACY_ROOT}`,
    port,
    adminToken,
    stateDir,
    state,
    faults,
    account,
    media: pool,
    setFaults: (patch) => faults.set(patch),
    advanceClock(seconds) {
      state.clockOffsetMs += seconds * 1000;
      pipeline.advanceAll();
    },
    async stop(graceMs = 0) {
      pipeline.stop();
      faults.releaseHeld();
      await new Promise<void>((resolve) => {
        const cut = graceMs > 0 ? setTimeout(() => server.closeAllConnections(), graceMs) : undefined;
        server.close(() => {
          clearTimeout(cut);
          resolve();
        });
        for (const res of presence) res.destroy();
        if (cut) server.closeIdleConnections();
        else server.closeAllConnections();
      });
      await pipeline.idle();
      if (persistence) {
        await durable();
        await persistence.lock.release();
      }
      if (ownDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
