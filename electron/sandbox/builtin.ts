import { setTimeout as sleep } from 'node:timers/promises';
import { watchOwner, type OwnerWatch } from './owner-watch';
import { startRelay, type Relay } from './relay';
import { LEGACY_ROOT } from './routes/legacy';
import { lookUpSandbox, SandboxInUseError, SandboxStateError, startSandbox, type Sandbox } from './server';

export interface BuiltInSandbox {
  baseUrl: string;
  legacyUrl: string;
  apiKey: string;
  stop(): Promise<void>;
}

const KEY = 'sandbox-key';

/** How long a sandbox another process is starting on the same home may take to listen. */
const READY_WITHIN_MS = 60_000;
/** The longest pause between two tries to take over a sandbox whose owner left, when starting one fails. */
const RETAKE_MAX_DELAY_MS = 10_000;

/** Either this process runs the sandbox, or it uses (and watches) the one another process runs. */
type Attachment = { own: Sandbox } | { borrowed: string; watch: OwnerWatch };

const startOwn = (stateDir: string) =>
  startSandbox({ stateDir, apiKey: KEY, pipelineSeconds: 4, balance: 3600 });

/**
 * Uses the sandbox running on `stateDir`, or starts it. Many processes may do this at once: one wins the
 * directory's lock, the others wait for it to listen, then use it.
 */
async function attach(stateDir: string, onOwnerGone: () => void, signal?: AbortSignal): Promise<Attachment> {
  const deadline = Date.now() + READY_WITHIN_MS;
  for (let delay = 20; ; delay = Math.min(delay * 2, 500)) {
    const look = await lookUpSandbox(stateDir);
    if (look.state === 'running') {
      const watch = await watchOwner(look.baseUrl, KEY, onOwnerGone);
      if (watch) return { borrowed: look.baseUrl, watch };
      // Not answering: it is stopping. Its lock goes when it is done, then this process takes over.
    } else if (look.state === 'free') {
      try {
        return { own: await startOwn(stateDir) };
      } catch (e) {
        if (!(e instanceof SandboxInUseError)) throw e; // another process was quicker: use that one
      }
    }
    if (Date.now() > deadline) {
      throw new SandboxStateError(
        `The built-in sandbox in ${stateDir} is held by process ${look.state === 'free' ? '?' : look.pid} ` +
          `but did not answer within ${READY_WITHIN_MS / 1000} s. Stop that process, or remove the lock files in ${stateDir}.`,
      );
    }
    await sleep(delay, undefined, { signal });
  }
}

const urlOf = (a: Attachment) => ('own' in a ? a.own.baseUrl : a.borrowed);

/** Time the requests in flight (other processes' too) get to finish when this process stops its sandbox. */
const STOP_GRACE_MS = 3000;

async function detach(a: Attachment): Promise<void> {
  if ('own' in a) await a.own.stop(STOP_GRACE_MS);
  else a.watch.close();
}

/**
 * The built-in sandbox of one home, shared by every Dubdesk process that uses it. The process that started
 * it serves it; the others talk to it through a relay of their own, so their address never changes: when
 * the serving process leaves (or dies), one of them takes over on the same state (and the same port, which
 * the state directory remembers, so links handed out stay good), and calls made meanwhile wait for it.
 */
class SharedSandbox implements BuiltInSandbox {
  readonly apiKey = KEY;
  readonly baseUrl: string;
  private readonly stopping = new AbortController();
  private retaking: Promise<void> | null = null;

  private constructor(
    private readonly stateDir: string,
    private current: Attachment,
    private readonly relay: Relay | null,
  ) {
    this.baseUrl = relay?.url ?? urlOf(current);
  }

  get legacyUrl(): string {
    return `${this.baseUrl}${LEGACY_ROOT}`;
  }

  static async open(stateDir: string): Promise<BuiltInSandbox> {
    let shared: SharedSandbox | null = null;
    const first = await attach(stateDir, () => shared?.ownerGone());
    if ('own' in first) return new SharedSandbox(stateDir, first, null);
    const relay = await startRelay(
      () => shared?.target() ?? Promise.resolve(first.borrowed),
      () => shared?.ownerGone(),
    );
    shared = new SharedSandbox(stateDir, first, relay);
    return shared;
  }

  /** Where the sandbox answers now, once any takeover under way is done. */
  private async target(): Promise<string> {
    while (this.retaking) await this.retaking;
    return urlOf(this.current);
  }

  private ownerGone(): void {
    if (this.stopping.signal.aborted || this.retaking || 'own' in this.current) return;
    this.retaking = this.retake().finally(() => {
      this.retaking = null;
    });
  }

  private async retake(): Promise<void> {
    const signal = this.stopping.signal;
    for (let delay = 250; !signal.aborted; delay = Math.min(delay * 2, RETAKE_MAX_DELAY_MS)) {
      try {
        const next = await attach(this.stateDir, () => this.ownerGone(), signal);
        if (signal.aborted) return await detach(next);
        this.current = next;
        return;
      } catch (e) {
        if (signal.aborted) return;
        console.error(
          '[sandbox] could not take over the built-in sandbox:',
          e instanceof Error ? e.message : e,
        );
      }
      await sleep(delay, undefined, { signal }).catch(() => undefined);
    }
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await this.retaking;
    await this.relay?.close();
    await detach(this.current);
  }
}

/**
 * The simulator a user gets without an account: its state (dubs, uploads, balance, clock) lives in
 * `stateDir` inside the Dubdesk home, so work queued against it survives the command that started it.
 * When another Dubdesk process already runs it on that folder, this one uses that one, and takes over
 * if that process leaves first.
 */
export function startBuiltInSandbox(stateDir: string): Promise<BuiltInSandbox> {
  return SharedSandbox.open(stateDir);
}
