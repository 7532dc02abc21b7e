import { readFileSync } from 'node:fs';

/** A track of an MP4 as its boxes say: the handler (`vide`, `soun`, `sbtl`…) and its tkhd flags. */
export interface Mp4Track {
  handler: string;
  /** tkhd's flag 0x1: the player shows or plays this track unless told otherwise. */
  enabled: boolean;
}

/** The boxes directly inside `bytes[start, end)`: type and body. */
function* boxes(bytes: Buffer, start: number, end: number): Generator<{ type: string; body: Buffer }> {
  for (let at = start; at + 8 <= end;) {
    let size = bytes.readUInt32BE(at);
    let header = 8;
    if (size === 1) {
      size = Number(bytes.readBigUInt64BE(at + 8));
      header = 16;
    } else if (size === 0) size = end - at;
    if (size < header) return;
    yield { type: bytes.toString('latin1', at + 4, at + 8), body: bytes.subarray(at + header, at + size) };
    at += size;
  }
}

const child = (body: Buffer, type: string) =>
  [...boxes(body, 0, body.length)].find((b) => b.type === type)?.body;

/**
 * Every track of a (small) MP4, read from its bytes rather than through ffprobe: moov/trak/tkhd's flags
 * (after its version byte) and moov/trak/mdia/hdlr's handler type (after version, flags and pre_defined).
 */
export function mp4Tracks(path: string): Mp4Track[] {
  const bytes = readFileSync(path);
  const moov = child(bytes, 'moov');
  if (!moov) throw new Error(`${path} has no moov box`);
  return [...boxes(moov, 0, moov.length)]
    .filter((b) => b.type === 'trak')
    .map(({ body }) => {
      const tkhd = child(body, 'tkhd');
      const hdlr = child(child(body, 'mdia') ?? Buffer.alloc(0), 'hdlr');
      if (!tkhd || !hdlr) throw new Error(`${path}: a track without tkhd or hdlr`);
      return { handler: hdlr.toString('latin1', 8, 12), enabled: (tkhd.readUInt32BE(0) & 0x1) === 1 };
    });
}
