import type { FileHandle } from 'node:fs/promises';
import type { Completeness } from './completeness';

const EBML_ID = 0x1a45dfa3;
const SEGMENT_ID = 0x18538067;

/** An EBML variable-length integer at `at`: its length in bytes and value (`null` when all its bits are 1). */
function vint(b: Buffer, at: number, keepMarker: boolean): { length: number; value: number | null } | null {
  const first = b[at];
  if (first === undefined || first === 0) return null;
  const length = Math.clz32(first) - 23; // 1 for 1xxxxxxx … 8 for 00000001
  if (at + length > b.length) return null;
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    const byte = b[at + i] ?? 0;
    value = value * 256 + byte;
    allOnes &&= byte === 0xff;
  }
  return { length, value: !keepMarker && allOnes ? null : value };
}

/** One element header at `at`: its id, where its data starts, and its declared size (`null`: unknown). */
function element(b: Buffer, at: number): { id: number; dataAt: number; size: number | null } | null {
  const id = vint(b, at, true);
  if (!id) return null;
  const size = vint(b, at + id.length, false);
  if (!size) return null;
  return { id: id.value ?? 0, dataAt: at + id.length + size.length, size: size.value };
}

/**
 * Matroska and WebM: the EBML header, then the Segment, whose declared size must end at the file's end.
 * Only these two headers are read. A Segment of unknown size (what live recorders and streaming writers
 * leave) says nothing about the end: those wait the longer quiet period instead.
 */
export async function matroska(
  fh: FileHandle,
  size: number,
  readAt: (fh: FileHandle, at: number, bytes: number) => Promise<Buffer>,
): Promise<Completeness> {
  const head = await readAt(fh, 0, 64);
  const ebml = element(head, 0);
  if (!ebml || ebml.id !== EBML_ID || ebml.size === null)
    return { whole: false, why: 'its Matroska header is cut' };
  const segmentAt = ebml.dataAt + ebml.size;
  if (segmentAt >= size) return { whole: false, why: `it ends inside its Matroska header at byte ${size}` };
  const segment = element(await readAt(fh, segmentAt, 16), 0);
  if (!segment) return { whole: false, why: `its Matroska segment header is cut at byte ${segmentAt}` };
  if (segment.id !== SEGMENT_ID) return { whole: 'unknown' };
  if (segment.size === null) return { whole: 'unknown' };
  const needed = segmentAt + segment.dataAt + segment.size;
  return needed > size
    ? { whole: false, why: `its Matroska segment needs ${needed} bytes and it has ${size}` }
    : { whole: true };
}
