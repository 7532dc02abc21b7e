import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../../electron/engine/engine';
import type { Sandbox } from '../../electron/sandbox/server';
import type { SandboxDub } from '../../electron/sandbox/state';

export function tempDir(prefix = 'dubdesk-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** An engine on a fresh SQLite file, talking to `sb` over loopback HTTP, with quick retries. */
export function engineFor(sb: Sandbox, home = tempDir(), apiKey = sb.account.apiKey): Engine {
  return new Engine({
    home,
    service: { baseUrl: sb.baseUrl, legacyUrl: sb.legacyUrl, apiKey },
    backoff: { baseMs: 50, capMs: 400 },
    leaseMs: 5_000,
    maxServerAttempts: 50,
  });
}

/** Dubs the service really started (not init-only file records, not undispatched 502s). */
export function startedDubs(sb: Sandbox): SandboxDub[] {
  return [...sb.state.dubs.values()].filter((d) => d.queuedAt !== null && !d.frozen);
}
