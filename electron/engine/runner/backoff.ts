export interface BackoffPolicy {
  baseMs: number;
  capMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 2_000, capMs: 60_000 };

/**
 * Exponential with equal jitter, capped: attempt n waits between half and all of min(cap, base * 2^(n-1)).
 * Equal rather than full jitter, so a job never retries almost at once after a failure and many jobs
 * failing together (the network dropped, the laptop woke up) spread out instead of storming the service.
 */
export function backoffDelay(
  attempt: number,
  policy: BackoffPolicy,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
