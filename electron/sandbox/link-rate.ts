import type { IncomingMessage } from 'node:http';
import type { Readable, Writable } from 'node:stream';
import { Transform } from 'node:stream';
import { TokenBucket } from 'limiter';

export const MIB = 1024 * 1024;

/**
 * The receiving side of the sandbox's link, shaped to a rate (`--link-rate`): every upload's bytes take
 * their tokens from one bucket, so uploads at once share the rate as they would share a real uplink.
 * A shaped upload reads its socket only as fast as the bucket allows, so TCP slows the sender down.
 */
export class LinkShaper {
  private readonly bucket: TokenBucket;
  /** Bytes let through at once: about 50 ms of the rate (at least 16 KiB), the bucket's burst. */
  private readonly slice: number;

  constructor(readonly bytesPerSecond: number) {
    this.slice = Math.max(16 * 1024, Math.round(bytesPerSecond / 20));
    this.bucket = new TokenBucket({
      bucketSize: this.slice,
      tokensPerInterval: bytesPerSecond,
      interval: 'second',
    });
  }

  /** A pass-through that lets bytes on no faster than the link's rate. */
  throttle(): Transform {
    const { bucket, slice } = this;
    return new Transform({
      transform(chunk: Buffer, _encoding, done) {
        void (async () => {
          for (let at = 0; at < chunk.length && !this.destroyed; at += slice) {
            const part = chunk.subarray(at, at + slice);
            await bucket.removeTokens(part.length);
            this.push(part);
          }
        })().then(() => done(), done);
      },
    });
  }
}

/**
 * Pipes a request body into `sink`, through the link's shaper when there is one. `stop` detaches it again
 * on failure (the request is paused, never destroyed, so the caller can still answer).
 */
export function pipeBody(req: IncomingMessage, sink: Writable, shaper: LinkShaper | null): { stop(): void } {
  const via: Transform | null = shaper?.throttle() ?? null;
  const head: Readable = via ? req.pipe(via) : req;
  head.pipe(sink);
  return {
    stop() {
      req.unpipe();
      via?.unpipe();
      via?.destroy();
      req.pause();
    },
  };
}
