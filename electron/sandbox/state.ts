import { randomUUID } from 'node:crypto';
import type { OutputType } from '../../shared/api/common';

export type Generation = 'v2' | 'v1' | 'legacy';

export interface SandboxAccount {
  id: string;
  apiKey: string;
  email: string;
  name: string;
  username: string;
  firstName: string | null;
  lastName: string | null;
  seconds: number;
  defaultDubLang: string;
  createdAt: string;
}

export interface Artifact {
  path: string;
  contentType: string;
  fileName: string;
}

/** What the media work found: the measured length, or why the file cannot be dubbed. */
export type MediaResult = { ok: true; duration: number } | { ok: false; error: string };

export interface Charge {
  dubId: string;
  userId: string;
  seconds: number;
  measuredDuration: number;
  studio: boolean;
  at: string;
}

export interface SandboxDub {
  id: string;
  projectId: string;
  /** Storage object key of the upload. */
  key: string;
  ownerId: string;
  generation: Generation;
  name: string;
  type: string;
  sourceLang: string;
  destLang: string;
  /** The caller's hint; never billed. */
  duration: number;
  studio: boolean;
  createdAt: Date;
  seq: number;
  uploadPath: string;
  uploaded: boolean;
  /** The pre-signed address handed out by init-dub (v1, legacy); null for v2. */
  uploadUrl: string | null;
  /** When the dub entered the queue (ms on the sandbox clock); null until started. */
  queuedAt: number | null;
  externalStatusId: number;
  internalStatusId: number;
  progress: number;
  errorMessage: string | null;
  measuredDuration: number | null;
  charged: boolean;
  /** The one charge of this dub, kept with it so a charge and its dub are always saved together. */
  charge: Charge | null;
  /** Decided when the dub is queued, so the fault is reproducible from the seed. */
  failsInPipeline: boolean;
  artifacts: Partial<Record<OutputType, Artifact>> | null;
  /** Set once the media work is done; null while it is pending or running. */
  media: MediaResult | null;
  /** Nothing will ever move this dub again (dispatch failed). */
  frozen: boolean;
  /** Bumped on every change: cached presentations of an older version are stale. Not persisted. */
  version: number;
}

/** Told about every change worth keeping across a restart; the persister listens, the default does nothing. */
export interface StateListener {
  dubSaved(dub: SandboxDub): void;
  accountsSaved(): void;
  metaSaved(): void;
}

const NO_LISTENER: StateListener = { dubSaved() {}, accountsSaved() {}, metaSaved() {} };

export class SandboxState {
  readonly accounts = new Map<string, SandboxAccount>();
  private readonly accountsByKey = new Map<string, SandboxAccount>();
  readonly dubs = new Map<string, SandboxDub>();
  readonly ledger: Charge[] = [];
  /** Requests served, by `METHOD /route/pattern`: tests check that polling uses lists, not one call per dub. */
  readonly requests = new Map<string, number>();
  /** What arrived, by way: v2 creates from a file, from a URL, from one of its own links; bytes received. */
  readonly ingest = {
    createsFromFile: 0,
    createsFromUrl: 0,
    createsFromOwnLink: 0,
    fileBytes: 0,
    putBytes: 0,
    urlBytes: 0,
    /** Each file received (the last 1,000): its bytes and how long its body took to arrive, first to last byte. */
    uploads: [] as { bytes: number; ms: number }[],
  };

  /** A file's body arrived whole: `bytes` in the `ms` since its request came in. */
  received(bytes: number, ms: number): void {
    this.ingest.uploads.push({ bytes, ms });
    if (this.ingest.uploads.length > 1000) this.ingest.uploads.shift();
  }
  /** Each owner's dubs in creation order, so a page is a slice, not a sort of everything. */
  private readonly byOwner = new Map<string, SandboxDub[]>();
  private seq = 0;
  private offsetMs = 0;
  /** How far the service's clock is off the machine's (the `clockSkewSeconds` fault); never saved. */
  skewMs = 0;
  listener: StateListener = NO_LISTENER;

  /** Added to the wall clock, so tests can make links expire without waiting. */
  get clockOffsetMs(): number {
    return this.offsetMs;
  }

  set clockOffsetMs(ms: number) {
    this.offsetMs = ms;
    this.listener.metaSaved();
  }

  now(): number {
    return Date.now() + this.offsetMs + this.skewMs;
  }

  addAccount(apiKey: string, seconds: number): SandboxAccount {
    const n = this.accounts.size + 1;
    const account: SandboxAccount = {
      id: `usr_${n}`,
      apiKey,
      email: `user${n}@sandbox.dubdesk.local`,
      name: `Sandbox User ${n}`,
      username: `sandbox${n}`,
      firstName: n === 1 ? 'Sandbox' : null,
      lastName: n === 1 ? 'User' : null,
      seconds,
      defaultDubLang: 'en',
      createdAt: new Date(this.now()).toISOString(),
    };
    this.restoreAccount(account);
    this.listener.accountsSaved();
    return account;
  }

  setBalance(account: SandboxAccount, seconds: number): void {
    account.seconds = seconds;
    this.listener.accountsSaved();
  }

  accountByKey(apiKey: string | undefined): SandboxAccount | undefined {
    return apiKey ? this.accountsByKey.get(apiKey) : undefined;
  }

  /** Puts an account in place, new or read back from disk (no save). */
  restoreAccount(account: SandboxAccount): void {
    this.accounts.set(account.id, account);
    this.accountsByKey.set(account.apiKey, account);
  }

  /** Credits charged to an account so far; its balance is what it was given less this. */
  chargedTo(accountId: string): number {
    let total = 0;
    for (const c of this.ledger) if (c.userId === accountId) total += c.seconds;
    return total;
  }

  newDub(
    fields: Pick<
      SandboxDub,
      | 'ownerId'
      | 'generation'
      | 'name'
      | 'type'
      | 'sourceLang'
      | 'destLang'
      | 'duration'
      | 'studio'
      | 'uploadPath'
    >,
  ): SandboxDub {
    const id = randomUUID();
    const dub: SandboxDub = {
      ...fields,
      id,
      projectId: randomUUID(),
      key: `uploads/${fields.ownerId}/${id}/${encodeURIComponent(fields.name)}`,
      createdAt: new Date(this.now()),
      seq: ++this.seq,
      uploaded: false,
      uploadUrl: null,
      queuedAt: null,
      externalStatusId: 1,
      internalStatusId: 1,
      progress: 0,
      errorMessage: null,
      measuredDuration: null,
      charged: false,
      charge: null,
      failsInPipeline: false,
      artifacts: null,
      media: null,
      frozen: false,
      version: 0,
    };
    this.insert(dub);
    this.listener.dubSaved(dub);
    return dub;
  }

  /** Puts a dub read back from disk into place (no save: it is on disk already). */
  restore(dub: SandboxDub): void {
    this.insert(dub);
    this.seq = Math.max(this.seq, dub.seq);
  }

  private insert(dub: SandboxDub): void {
    this.dubs.set(dub.id, dub);
    const own = this.byOwner.get(dub.ownerId) ?? [];
    own.push(dub);
    // Restores may come in any order; new dubs always have the highest seq and land at the end.
    if (own.length > 1 && (own.at(-2)?.seq ?? 0) > dub.seq) own.sort((a, b) => a.seq - b.seq);
    this.byOwner.set(dub.ownerId, own);
  }

  /** A change clients may see but a restart can recompute (progress, intermediate statuses). */
  touched(dub: SandboxDub): void {
    dub.version++;
  }

  /** A change that must survive a restart: it is saved before the answer that reports it. */
  saved(dub: SandboxDub): void {
    dub.version++;
    this.listener.dubSaved(dub);
  }

  /** How many dubs `ownerId` has. */
  countOf(ownerId: string): number {
    return this.byOwner.get(ownerId)?.length ?? 0;
  }

  /** The caller's dubs, newest first, from `offset` on, at most `limit` of them. */
  pageOf(ownerId: string, offset: number, limit: number): SandboxDub[] {
    const own = this.byOwner.get(ownerId) ?? [];
    const end = Math.max(0, own.length - offset);
    return own.slice(Math.max(0, end - limit), end).reverse();
  }

  /** The caller's dubs, newest first. */
  dubsOf(ownerId: string, filter: (d: SandboxDub) => boolean = () => true): SandboxDub[] {
    const own = this.byOwner.get(ownerId) ?? [];
    const out: SandboxDub[] = [];
    for (let i = own.length - 1; i >= 0; i--) {
      const d = own[i];
      if (d && filter(d)) out.push(d);
    }
    return out;
  }
}
