import type { FileHandle } from 'node:fs/promises';

/** Reads `length` bytes at `position` (fewer at the end of the file). */
export type ReadAt = (position: number, length: number) => Promise<Buffer>;

/** Where a box is: its body (after its header) up to its end, as offsets in the file. */
export interface BoxAt {
  body: number;
  end: number;
}

/** The first box of `type` directly inside `[start, end)`, reading box headers only; null when none. */
export async function findBox(read: ReadAt, start: number, end: number, type: string): Promise<BoxAt | null> {
  let pos = start;
  while (pos + 8 <= end) {
    const header = await read(pos, 16);
    if (header.length < 8) return null;
    let boxSize = header.readUInt32BE(0);
    let headerSize = 8;
    if (boxSize === 1) {
      if (header.length < 16) return null;
      boxSize = Number(header.readBigUInt64BE(8));
      headerSize = 16;
    } else if (boxSize === 0) {
      boxSize = end - pos;
    }
    if (boxSize < headerSize) return null;
    if (header.toString('latin1', 4, 8) === type) return { body: pos + headerSize, end: pos + boxSize };
    pos += boxSize;
  }
  return null;
}

/** A box inside a buffer: where it starts, and where its body does, up to its end (offsets in the buffer). */
export interface Box {
  type: string;
  at: number;
  body: number;
  end: number;
}

/** The boxes directly inside `[start, end)` of a buffer; stops at the first that does not fit. */
export function* boxesIn(buf: Buffer, start: number, end: number): Generator<Box> {
  for (let at = start; at + 8 <= end;) {
    let size = buf.readUInt32BE(at);
    let head = 8;
    if (size === 1 && at + 16 <= end) [size, head] = [Number(buf.readBigUInt64BE(at + 8)), 16];
    else if (size === 0) size = end - at;
    if (size < head || at + size > end) return;
    yield { type: buf.toString('latin1', at + 4, at + 8), at, body: at + head, end: at + size };
    at += size;
  }
}

/** The top-level `moov` box of an MP4 file, where it lies and its bytes; null without one or past `maxBytes`. */
export async function readMoov(
  file: FileHandle,
  maxBytes: number,
): Promise<{ at: number; bytes: Buffer } | null> {
  const { size } = await file.stat();
  return readMoovAt(readerOfFile(file), size, maxBytes);
}

/** `readMoov` through a reader (one that may serve what was read already from memory). */
export async function readMoovAt(
  read: ReadAt,
  size: number,
  maxBytes: number,
): Promise<{ at: number; bytes: Buffer } | null> {
  for (let at = 0; at + 8 <= size;) {
    const head = await read(at, 16);
    if (head.length < 8) return null;
    let length = head.readUInt32BE(0);
    if (length === 1) {
      if (head.length < 16) return null;
      length = Number(head.readBigUInt64BE(8));
    } else if (length === 0) length = size - at;
    if (length < 8) return null;
    if (head.toString('latin1', 4, 8) === 'moov') {
      if (length > maxBytes || at + length > size) return null;
      const bytes = await read(at, length);
      return bytes.length === length ? { at, bytes } : null;
    }
    at += length;
  }
  return null;
}

/** A reader of an open file. */
export function readerOfFile(file: FileHandle): ReadAt {
  return async (position, length) => {
    const buf = Buffer.alloc(length);
    const { bytesRead } = await file.read(buf, 0, length, position);
    return buf.subarray(0, bytesRead);
  };
}
