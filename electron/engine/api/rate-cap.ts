import { TokenBucket } from 'limiter';
import { MIN_RATE_BYTES } from '../../../shared/rates';

export { MIN_RATE_BYTES };

interface Bucket {
  tokens: TokenBucket;
  /** The most bytes let through at once: about 50 ms of the rate, so the burst stays small. */
  piece: number;
}

/**
 * A cap on the bytes a kind of transfer moves per second, shared by every transfer of that kind at once
 * (one uplink: three uploads share the cap, each does not get it whole). A token bucket that starts empty
 * and holds 50 ms of the rate at most, so over any stretch of time the bytes let through exceed the rate
 * by one piece at most. Uncapped, nothing waits: callers check `capped` before asking for tokens.
 */
export class RateCap {
  private bucket: Bucket | null = null;
  private bytesPerSecond: number | null = null;

  constructor(bytesPerSecond: number | null = null) {
    this.set(bytesPerSecond);
  }

  get rate(): number | null {
    return this.bytesPerSecond;
  }

  get capped(): boolean {
    return this.bucket !== null;
  }

  /** The most one wait lets through: transfers cut their writes to it so each write waits once. */
  get piece(): number | null {
    return this.bucket?.piece ?? null;
  }

  /** A new cap (null: none). Transfers take it from their next piece on. */
  set(bytesPerSecond: number | null): void {
    if (bytesPerSecond === this.bytesPerSecond) return;
    if (bytesPerSecond !== null && !(Number.isFinite(bytesPerSecond) && bytesPerSecond >= MIN_RATE_BYTES))
      throw new RangeError(`a rate cap must be at least ${MIN_RATE_BYTES} bytes per second`);
    this.bytesPerSecond = bytesPerSecond;
    if (bytesPerSecond === null) {
      this.bucket = null;
      return;
    }
    const piece = Math.max(1024, Math.min(64 * 1024, Math.round(bytesPerSecond / 20)));
    this.bucket = {
      piece,
      tokens: new TokenBucket({ bucketSize: piece, tokensPerInterval: bytesPerSecond, interval: 'second' }),
    };
  }

  /** Resolves once `bytes` may go: at once when uncapped, else after their share of the rate. */
  async take(bytes: number): Promise<void> {
    for (let left = bytes; left > 0;) {
      const bucket = this.bucket;
      if (!bucket) return;
      const n = Math.min(left, bucket.piece);
      await bucket.tokens.removeTokens(n);
      left -= n;
    }
  }
}

/** The caps of one engine: uploads (the uplink) and downloads, each shared by every transfer at once. */
export interface TransferCaps {
  upload: RateCap;
  download: RateCap;
}

export const uncapped = (): TransferCaps => ({ upload: new RateCap(), download: new RateCap() });
