import { open, type FileHandle } from 'node:fs/promises';

/**
 * The movie duration of an MP4/MOV from its `moov/mvhd` box: what the service measures and bills.
 * (music-metadata reports the audio track's length instead, which AAC priming makes a fraction longer,
 * enough to push ceil() up by a whole credit.) Reads only box headers and the moov box, wherever it is.
 */
export async function mp4MovieDuration(path: string): Promise<number | null> {
  const fh = await open(path, 'r');
  try {
    const size = (await fh.stat()).size;
    const moov = await findBox(fh, 0, size, 'moov');
    if (!moov) return null;
    const mvhd = await findBox(fh, moov.body, moov.end, 'mvhd');
    if (!mvhd) return null;
    const head = Buffer.alloc(32);
    await fh.read(head, 0, 32, mvhd.body);
    const version = head.readUInt8(0);
    const timescale = version === 1 ? head.readUInt32BE(20) : head.readUInt32BE(12);
    const duration = version === 1 ? Number(head.readBigUInt64BE(24)) : head.readUInt32BE(16);
    if (!timescale || !duration || duration === 0xffffffff) return null;
    return duration / timescale;
  } finally {
    await fh.close();
  }
}

async function findBox(
  fh: FileHandle,
  start: number,
  end: number,
  type: string,
): Promise<{ body: number; end: number } | null> {
  const header = Buffer.alloc(16);
  let pos = start;
  while (pos + 8 <= end) {
    const { bytesRead } = await fh.read(header, 0, 16, pos);
    if (bytesRead < 8) return null;
    let boxSize = header.readUInt32BE(0);
    let headerSize = 8;
    if (boxSize === 1) {
      if (bytesRead < 16) return null;
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
