import { setImmediate as turn } from 'node:timers/promises';

/** How long one synchronous stretch of a big batch may hold the event loop (the faces' target is 50 ms). */
export const SLICE_MS = 8;

/**
 * Cuts long synchronous work into slices of a few milliseconds, giving the event loop a turn in between, so
 * a face, a watched folder and the uploads keep moving while 100,000 jobs are sorted or written. Slices are
 * timed, not counted: a row costs several times more on a slow or busy machine, and a fixed count of rows
 * per slice (250) then held the loop for 140 ms.
 */
export class TimeSlices {
  private start = performance.now();

  constructor(private readonly sliceMs = SLICE_MS) {}

  /** This slice has run its time: end it (commit what it wrote) and `breathe`. */
  get due(): boolean {
    return performance.now() - this.start >= this.sliceMs;
  }

  /** Whether work of `ms` more still ends within this slice. */
  fits(ms: number): boolean {
    return performance.now() - this.start + ms < this.sliceMs;
  }

  /** The event loop's turn; the next slice starts after it. */
  async breathe(): Promise<void> {
    await turn();
    this.start = performance.now();
  }
}

/** Items per lookup of a big batch: 20,000 sources in one query held the event loop for 50 to 100 ms. */
export const LOOKUP_CHUNK = 1000;

/**
 * `look` over `items` a chunk of `chunk` items at a time, the event loop's turn between chunks once a
 * slice has run its time; the answers of every chunk, in order.
 */
export async function lookInChunks<T, R>(
  items: readonly T[],
  slices: TimeSlices,
  look: (chunk: T[]) => readonly R[],
  chunk = LOOKUP_CHUNK,
): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += chunk) {
    if (slices.due) await slices.breathe();
    for (const r of look(items.slice(i, i + chunk))) out.push(r);
  }
  return out;
}

/**
 * `each` over `items` in order, the event loop's turn between two items once a slice has run its time: a
 * loop over a big batch's 20,000 files, a few microseconds each, is otherwise one stretch of 50 ms or more.
 */
export async function eachInSlices<T>(
  items: Iterable<T>,
  slices: TimeSlices,
  each: (item: T) => void,
): Promise<void> {
  for (const item of items) {
    if (slices.due) await slices.breathe();
    each(item);
  }
}
