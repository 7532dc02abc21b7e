/**
 * A package whose disk was full waits for the room it needs before it is tried again, and what it says is
 * never a room it already has: a package that did not fit although its estimate said it would asks for more,
 * instead of filling the disk again every second. (The real disk: package-disk-full.test.ts.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { PackageRow } from '../../electron/engine/db/job-store/deliver-values';
import { PackageRoomError } from '../../electron/engine/flows/deliver/package-room';
import { PackageRoomWaits } from '../../electron/engine/runner/package-room-waits';

const MiB = 1024 * 1024;
const DIR = '/media/Clé/Livrables';
const full = Object.assign(new Error('No space left on device'), { code: 'ENOSPC' });

/** Waits over a disk whose free bytes the test sets. */
function onDisk(free: number) {
  const disk = { free };
  const said: string[] = [];
  const waits = new PackageRoomWaits(
    { waitForRoom: (_id, message) => void said.push(message) },
    () => {},
    () => disk.free,
  );
  made.push(waits);
  return { waits, said, disk, row: { id: 7, out_dir: DIR } as PackageRow };
}

const made: PackageRoomWaits[] = [];
afterEach(() => made.splice(0).forEach((w) => w.stop()));

describe('a package waiting for room', () => {
  it('waits for its own size, the figure going down as room is freed, then is tried again', () => {
    const { waits, said, disk, row } = onDisk(2 * MiB);
    expect(waits.wait(row, new PackageRoomError(7 * MiB - 10, full))).toBe(true);
    expect(said).toEqual([`disk full: free 5.0 MiB in ${DIR}`]);
    disk.free = 6 * MiB;
    expect(waits.holds(row.id)).toBe(true);
    expect(said.at(-1)).toBe(`disk full: free 1.0 MiB in ${DIR}`);
    disk.free = 7 * MiB;
    expect(waits.holds(row.id)).toBe(false);
  });

  it('that failed in what its estimate said was enough asks for more instead of trying again at once', () => {
    const { waits, said, row } = onDisk(50 * MiB);
    expect(waits.wait(row, new PackageRoomError(40 * MiB, full))).toBe(true);
    expect(waits.holds(row.id)).toBe(true);
    expect(said).toEqual([`disk full: free 4.0 MiB in ${DIR}`]);
  });

  it('is not a wait when the disk was not full', () => {
    const { waits, said, row } = onDisk(0);
    expect(waits.wait(row, new Error('ffmpeg failed: Invalid data found'))).toBe(false);
    expect(waits.holds(row.id)).toBe(false);
    expect(said).toEqual([]);
  });
});
