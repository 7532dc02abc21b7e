import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newAdminToken } from './admin-auth';
import { createDispatcher } from './dispatch';
import { Faults } from './faults';
import type { Route } from './http';
import { SandboxOptions, type FaultSettings, type SandboxOptionsInput } from './options';
import { Pipeline } from './pipeline';
import { adminRoutes, publicRoutes } from './routes/public';
import { LEGACY_ROOT, legacyRoutes } from './routes/legacy';
import { storageRoutes } from './routes/storage';
import { v1Routes } from './routes/v1';
import { v2Routes } from './routes/v2';
import { SandboxService } from './service';
import { systemResolver, type ResolveHost } from './source-url';
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

/** Seams for tests that cannot be plain options: how source_url host names resolve. */
export interface SandboxHooks {
  resolveHost?: ResolveHost;
}

export async function startSandbox(
  input: SandboxOptionsInput = {},
  hooks: SandboxHooks = {},
): Promise<Sandbox> {
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
  const svc = new SandboxService(
    options,
    state,
    pipeline,
    faults,
    new UrlSigner(() => state.now()),
    dataDir,
    {
      resolve: hooks.resolveHost ?? systemResolver,
      allowPrivate: options.allowPrivateSourceUrls,
    },
  );
  const routes: Route[] = [
    ...publicRoutes(),
    ...v2Routes(svc),
    ...v1Routes(svc),
    ...legacyRoutes(svc),
    ...storageRoutes(svc),
    ...adminRoutes(svc),
  ];

  let origin = '';
  const server: Server = createServer(
    { requestTimeout: 0 },
    createDispatcher({
      routes,
      state,
      faults,
      adminToken,
      maxUploadBytes: options.maxUploadBytes,
      origin: () => origin,
      beforeRoute: () => pipeline.advanceAll(),
    }),
  );

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  origin = `http://${host === '0.0.0.0' ? '127.0.0.1' : host === '[::]' ? '[::1]' : host}:${port}`;
  svc.origin = origin;
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
