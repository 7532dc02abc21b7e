import { freeBytes, isDiskFull, roomToFree } from '../files/disk-space';
import type { PackageRow } from '../db/job-store/deliver-values';
import type { Packages } from '../db/job-store/packages';
import { PackageRoomError } from '../flows/deliver/package-source';

/** How often a package waiting for room looks at its disk again. */
const ROOM_LOOK_MS = 1000;
const MiB = 1024 * 1024;

interface RoomWait {
  dir: string;
  /** Bytes its disk must have free before it is tried again. */
  needFree: number;
  /** What its record says now ("disk full: free N MiB in DIR"). */
  said: string;
}

/**
 * Packages whose disk was full, as the jobs wait for theirs: each says what to free where (the figure going
 * down as room is freed), is not tried again before its disk has that room, and then is, by itself.
 */
export class PackageRoomWaits {
  private readonly waits = new Map<number, RoomWait>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly packages: Pick<Packages, 'waitForRoom'>,
    /** Looks for due work again (a package whose room came is then started). */
    private readonly look: () => void,
    /** Bytes free on the disk holding a folder (statfs). */
    private readonly free: (dir: string) => number | null = freeBytes,
  ) {}

  /** When `e` says the disk of package `p` is full: records that it waits for room, and returns true. */
  wait(p: PackageRow, e: unknown): boolean {
    if (!isDiskFull(e, p.out_dir)) return false;
    const free = this.free(p.out_dir) ?? 0;
    // The package's own size; and never less than more than there is now: a package that did not fit in what
    // its estimate said is enough (or a folder its disk refused) asks for more, rather than being tried again
    // at once, and again, each time filling the disk.
    const estimate = e instanceof PackageRoomError ? e.bytes : 0;
    const needFree = Math.max(estimate, free + Math.max(MiB, Math.ceil(estimate / 10)));
    const wait = { dir: p.out_dir, needFree, said: '' };
    this.waits.set(p.id, wait);
    this.say(p.id, wait, free);
    this.timer ??= setInterval(() => {
      if (this.waits.size > 0) return this.look();
      this.stop();
    }, ROOM_LOOK_MS).unref();
    return true;
  }

  /** Whether package `id` still waits for room (its figure brought up to date); false once it has it. */
  holds(id: number): boolean {
    const wait = this.waits.get(id);
    if (!wait) return false;
    const free = this.free(wait.dir) ?? 0;
    if (free >= wait.needFree) {
      this.waits.delete(id);
      return false;
    }
    this.say(id, wait, free);
    return true;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Recorded only when the words change: the figure is rounded up to whole MiB. */
  private say(id: number, wait: RoomWait, free: number): void {
    const said = `disk full: free ${roomToFree(wait.needFree - free)} in ${wait.dir}`;
    if (said === wait.said) return;
    wait.said = said;
    this.packages.waitForRoom(id, said);
  }
}
