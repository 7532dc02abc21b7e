import type { ApiGeneration } from '../../../shared/contract/jobs';

/**
 * The most one upload may weigh, by generation (the spec's Limits: 1 GB per file on v2, 413 beyond; v1 and
 * legacy state none). What is sent counts: on the audio path the sound, not the source.
 */
export const UPLOAD_LIMIT: Readonly<Record<ApiGeneration, number | null>> = {
  v2: 1024 ** 3,
  v1: null,
  legacy: null,
};

/** The most of an API reply that is read: the largest real one (a page of 100 dubs) is well under 1 MiB. */
export const MAX_API_BODY_BYTES = 8 * 1024 * 1024;
/** The most of an error reply that is read: its message is all that is kept. */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

/**
 * Time and size limits of the HTTP layer. Idle limits apply to every transfer; deadlines apply to answers:
 * an upload or a download may take an hour, but the service's answer to it may not.
 */
export interface HttpLimits {
  /** DNS lookup, TCP connect and TLS handshake, each. */
  connectMs: number;
  /** Nothing moved on the socket for this long, in either direction: the line is dead. */
  idleMs: number;
  /** From the request fully sent to the status line, and again from the status line to the body's end. */
  answerMs: number;
  /** The whole of an API call without a big body, connection to last byte. */
  callMs: number;
  maxBodyBytes: number;
  maxErrorBodyBytes: number;
  /**
   * A download's floor: at least `minDownloadBytes` in every `progressWindowMs` once its body began (a line
   * that trickles a byte now and then, under the idle limit, would otherwise never end).
   */
  progressWindowMs: number;
  minDownloadBytes: number;
}

export const DEFAULT_LIMITS: Readonly<HttpLimits> = {
  connectMs: 10_000,
  idleMs: 60_000,
  answerMs: 120_000,
  callMs: 180_000,
  maxBodyBytes: MAX_API_BODY_BYTES,
  maxErrorBodyBytes: MAX_ERROR_BODY_BYTES,
  // 32 KiB a minute (about 550 bytes/s): far below any line that can carry video at all.
  progressWindowMs: 60_000,
  minDownloadBytes: 32 * 1024,
};

/** The public language list is a nicety with an offline fallback: it gets a few seconds, not minutes. */
export const LANGS_LIMITS: Partial<HttpLimits> = { idleMs: 10_000, answerMs: 10_000, callMs: 15_000 };

export function withLimits(...overrides: (Partial<HttpLimits> | undefined)[]): HttpLimits {
  const merged: HttpLimits = { ...DEFAULT_LIMITS };
  for (const o of overrides) {
    for (const [k, v] of Object.entries(o ?? {}) as [keyof HttpLimits, number | undefined][]) {
      if (v !== undefined) merged[k] = v;
    }
  }
  return merged;
}
