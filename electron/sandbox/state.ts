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
  /** Decided when the dub is queued, so the fault is reproducible from the seed. */
  failsInPipeline: boolean;
  artifacts: Partial<Record<OutputType, Artifact>> | null;
  mediaError: string | null;
  /** Nothing will ever move this dub again (dispatch failed). */
  frozen: boolean;
}

export interface Charge {
  dubId: string;
  userId: string;
  seconds: number;
  measuredDuration: number;
  studio: boolean;
  at: string;
}

export class SandboxState {
  readonly accounts = new Map<string, SandboxAccount>();
  readonly dubs = new Map<string, SandboxDub>();
  readonly ledger: Charge[] = [];
  /** Requests served, by `METHOD /route/pattern`: tests check that polling uses lists, not one call per dub. */
  readonly requests = new Map<string, number>();
  private seq = 0;
  /** Added to the wall clock, so tests can make links expire without waiting. */
  clockOffsetMs = 0;

  now(): number {
    return Date.now() + this.clockOffsetMs;
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
    this.accounts.set(account.id, account);
    return account;
  }

  accountByKey(apiKey: string | undefined): SandboxAccount | undefined {
    if (!apiKey) return undefined;
    for (const a of this.accounts.values()) if (a.apiKey === apiKey) return a;
    return undefined;
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
      failsInPipeline: false,
      artifacts: null,
      mediaError: null,
      frozen: false,
    };
    this.dubs.set(id, dub);
    return dub;
  }

  /** The caller's dubs, newest first. */
  dubsOf(ownerId: string, filter: (d: SandboxDub) => boolean = () => true): SandboxDub[] {
    return [...this.dubs.values()]
      .filter((d) => d.ownerId === ownerId && filter(d))
      .sort((a, b) => b.seq - a.seq);
  }
}
