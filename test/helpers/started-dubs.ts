import type { Sandbox } from '../../electron/sandbox/server';
import type { SandboxDub } from '../../electron/sandbox/state';

/** Dubs the service really started (not init-only file records, not undispatched 502s). */
export function startedDubs(sb: Sandbox): SandboxDub[] {
  return [...sb.state.dubs.values()].filter((d) => d.queuedAt !== null && !d.frozen);
}
