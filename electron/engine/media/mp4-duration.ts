/** Reads `length` bytes at `position` (fewer at the end of the file). */
export type ReadAt = (position: number, length: number) => Promise<Buffer>;

/**
 * The movie duration of an MP4/MOV from its `moov/mvhd` box: what the service measures and bills.
 * (music-metadata reports the audio track's length instead, which AAC priming makes a fraction longer,
 * enough to push ceil() up by a whole credit.) Reads only box headers and the moov box, wherever it is.
 */
export async function mp4MovieDuration(read: ReadAt, size: number): Promise<number | null> {
  const moov = await findBox(read, 0, size, 'moov');
  if (!moov) return null;
  const mvhd = await findBox(read, moov.body, moov.end, 'mvhd');
  if (!mvhd) return null;
  const head = await read(mvhd.body, 32);
  if (head.length < 32) return null;
  const version = head.readUInt8(0);
  const timescale = version === 1 ? head.readUInt32BE(20) : head.readUInt32BE(12);
  const duration = version === 1 ? Number(head.readBigUInt64BE(24)) : head.readUInt32BE(16);
  if (!timescale || !duration || duration === 0xffffffff) return null;
  return duration / timescale;
}

async function findBox(
  read: ReadAt,
  start: number,
  end: number,
  type: string,
): Promise<{ body: number; end: number } | null> {
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
