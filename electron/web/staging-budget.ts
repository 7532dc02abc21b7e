import { mkdir, readdir, stat, statfs } from 'node:fs/promises';
import { join } from 'node:path';
import { DubdeskError } from '../../shared/contract/errors';

/** What staging may hold: per file, in all, on the disk, and at once. */
export interface StagingLimits {
  /** One file. */
  maxBytes: number;
  /** Everything under `staging/`, the uploads under way included. */
  maxTotalBytes: number;
  /** What staging always leaves free on the disk of the data folder. */
  diskMarginBytes: number;
  /** Uploads under way at once. */
  maxUploads: number;
}

/** Defaults: a day's worth of dropped videos, room for the database and results, a few tabs uploading. */
export const STAGING_LIMITS = {
  maxTotalBytes: 64 * 1024 ** 3,
  diskMarginBytes: 2 * 1024 ** 3,
  maxUploads: 4,
} as const;

const gib = (n: number) => `${(n / 1024 ** 3).toFixed(n < 1024 ** 3 ? 2 : 1)} GiB`;

/** Bytes of the regular files under `root` and its folders (staging is two levels deep). */
async function bytesUnder(root: string): Promise<number> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  let total = 0;
  for (const e of entries) {
    if (!e.isFile()) continue;
    const info = await stat(join(e.parentPath, e.name)).catch(() => null);
    total += info?.size ?? 0;
  }
  return total;
}

/** An admitted upload: how many bytes it may write, and what to call once it ended, however. */
export interface Admitted {
  readonly allowed: number;
  /** Counts bytes as they are written (already on the disk: no longer held back for this upload). */
  wrote(n: number): void;
  /** Why `allowed` is what it is, for the refusal once the upload goes past it. */
  readonly refusal: DubdeskError;
  end(): void;
}

/**
 * Admits uploads to `staging/`: no more than `maxUploads` at once (429), and only what fits in the total
 * and on the disk, once what the uploads under way may still write is held back for them (413). A body
 * without Content-Length may take all the room there is, so one such upload alone fits.
 */
export class StagingBudget {
  private readonly running = new Set<{ reserved: number; written: number }>();

  constructor(
    private readonly root: string,
    private readonly limits: StagingLimits,
  ) {}

  /** Reserves room for an upload of `declared` bytes (null: not said); throws the refusal otherwise. */
  async admit(declared: number | null): Promise<Admitted> {
    const { maxBytes, maxTotalBytes, diskMarginBytes, maxUploads } = this.limits;
    if (this.running.size >= maxUploads)
      throw new DubdeskError('busy', `${maxUploads} uploads are under way at once already`, {
        remedy: 'Upload the file again once one of them has finished.',
      });
    const entry = { reserved: 0, written: 0 };
    // Held at once, before any await: two uploads admitted together still count each other.
    this.running.add(entry);
    try {
      const heldBack = () =>
        [...this.running].reduce(
          (sum, u) => (u === entry ? sum : sum + Math.max(0, u.reserved - u.written)),
          0,
        );
      await mkdir(this.root, { recursive: true, mode: 0o700 });
      const [staged, disk] = await Promise.all([bytesUnder(this.root), statfs(this.root).catch(() => null)]);
      const free = disk ? disk.bavail * disk.bsize : Number.POSITIVE_INFINITY;
      const byTotal = maxTotalBytes - staged - heldBack();
      const byDisk = free - diskMarginBytes - heldBack();
      const room = Math.max(0, Math.min(byTotal, byDisk));
      const refusal =
        byDisk <= byTotal
          ? new DubdeskError(
              'too-large',
              `staging is full: ${gib(Math.max(0, free))} free on the disk of the data folder, and ${gib(diskMarginBytes)} of it stays free`,
              {
                remedy: 'Add the file by its path on this machine instead, or free some space on that disk.',
              },
            )
          : new DubdeskError(
              'too-large',
              `staging is full: ${gib(staged)} staged of ${gib(maxTotalBytes)} at most`,
              {
                remedy:
                  'Add the file by its path on this machine instead, or clear finished jobs (their staged files are then deleted).',
              },
            );
      const wanted = declared ?? Math.min(maxBytes, room);
      if (wanted > room || room === 0) throw refusal;
      entry.reserved = wanted;
      return {
        allowed: wanted,
        refusal,
        wrote: (n) => {
          entry.written += n;
        },
        end: () => this.running.delete(entry),
      };
    } catch (e) {
      this.running.delete(entry);
      throw e;
    }
  }
}
