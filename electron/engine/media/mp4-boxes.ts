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
