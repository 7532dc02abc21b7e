import { open, type FileHandle } from 'node:fs/promises';
import { formatBytes } from '../../../shared/format';
import type { Completeness } from './completeness';
import { matroska } from './ebml';

const READ = 1024 * 1024;

/** Whether the file at `path` is whole, from its container (see `Completeness`). */
export async function completeness(path: string): Promise<Completeness> {
  const fh = await open(path, 'r');
  try {
    const { size } = await fh.stat();
    const head = await readAt(fh, 0, 4100);
    const type = head.toString('latin1', 4, 8);
    if (head.length >= 8 && /^(ftyp|moov|mdat|free|skip|wide|pnot)$/.test(type))
      return await isoBoxes(fh, size);
    if (head.toString('latin1', 0, 4) === 'RIFF' && /^(WAVE|AVI )$/.test(head.toString('latin1', 8, 12)))
      return await riff(fh, size);
    if (head.length >= 4 && head.readUInt32BE(0) === 0x1a45dfa3) return await matroska(fh, size, readAt);
    if (head.toString('latin1', 0, 3) === 'ID3' || frameLength(head, 0) > 0) return await mp3Frames(fh, size);
    // Media whose end cannot be read (Ogg, FLAC…) waits longer; anything else is not media
    // at all, and waiting would only delay telling the user so (the planner names what it is).
    const { fileTypeFromBuffer } = await import('file-type');
    const kind = await fileTypeFromBuffer(head);
    return kind && /^(video|audio)\//.test(kind.mime) ? { whole: 'unknown' } : { whole: true };
  } finally {
    await fh.close();
  }
}

async function readAt(fh: FileHandle, at: number, bytes: number): Promise<Buffer> {
  const { buffer, bytesRead } = await fh.read(Buffer.alloc(bytes), 0, bytes, at);
  return buffer.subarray(0, bytesRead);
}

/** MP4/MOV: the top-level boxes add up to the file's size exactly, and the index (`moov`) is there. */
async function isoBoxes(fh: FileHandle, size: number): Promise<Completeness> {
  let at = 0;
  let moov = false;
  for (let boxes = 0; at < size && boxes < 100_000; boxes++) {
    const h = await readAt(fh, at, 16);
    if (h.length < 8) return { whole: false, why: `its last MP4 box header is cut at byte ${at}` };
    let length = h.readUInt32BE(0);
    const type = h.toString('latin1', 4, 8);
    if (type === 'moov') moov = true;
    if (length === 1) {
      if (h.length < 16) return { whole: false, why: `its last MP4 box header is cut at byte ${at}` };
      length = Number(h.readBigUInt64BE(8));
    } else if (length === 0) {
      // "To the end of the file": what a writer leaves while it still writes; whole only with its index.
      return moov
        ? { whole: 'unknown' }
        : { whole: false, why: 'its MP4 data runs to its end with no index yet' };
    }
    if (length < 8) return { whole: false, why: `it has an MP4 box of ${length} bytes at byte ${at}` };
    at += length;
  }
  if (at > size) {
    const n = (b: number) => b.toLocaleString('en-US');
    const why = `${formatBytes(at - size)} of its MP4 structure is still missing, ${n(size)} of ${n(at)} bytes written so far`;
    return { whole: false, why };
  }
  if (!moov) return { whole: false, why: 'its MP4 index (moov) is not written yet' };
  return { whole: true };
}

/**
 * WAV and AVI: the RIFF size says how long the file is. An AVI over 1 GB (OpenDML) is a chain of RIFF
 * chunks (`RIFF AVI `, then `RIFF AVIX`…): each must be whole.
 */
async function riff(fh: FileHandle, size: number): Promise<Completeness> {
  let at = 0;
  let end = 0; // the end of the last chunk, without the pad byte it may lack at the file's very end
  for (let chunks = 0; at < size && chunks < 10_000; chunks++) {
    const h = await readAt(fh, at, 8);
    if (chunks > 0 && h.toString('latin1', 0, 4) !== 'RIFF') break; // what may follow the chunks
    if (h.length < 8) return { whole: false, why: `its RIFF header is cut at byte ${at}` };
    const declared = h.readUInt32LE(4);
    // Writers that stream leave 0 or the maximum until they finish: nothing to tell from.
    if (declared === 0 || declared === 0xffffffff) return { whole: 'unknown' };
    end = at + 8 + declared;
    at = end + (declared % 2);
  }
  return end > size
    ? { whole: false, why: `its RIFF header says ${end} bytes and it has ${size}` }
    : { whole: true };
}

const BITRATES = {
  mpeg1: [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  mpeg2: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
const SAMPLE_RATES = [44100, 48000, 32000];

/** The length of the MPEG audio layer III frame whose header starts at `i`, or 0 when there is none. */
function frameLength(b: Buffer, i: number): number {
  if (i + 4 > b.length || b[i] !== 0xff || ((b[i + 1] ?? 0) & 0xe0) !== 0xe0) return 0;
  const version = ((b[i + 1] ?? 0) >> 3) & 3; // 3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5
  const layer = ((b[i + 1] ?? 0) >> 1) & 3; // 1: layer III
  const bitrateIndex = (b[i + 2] ?? 0) >> 4;
  const rateIndex = ((b[i + 2] ?? 0) >> 2) & 3;
  if (version === 1 || layer !== 1 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return 0;
  const padding = ((b[i + 2] ?? 0) >> 1) & 1;
  const mpeg1 = version === 3;
  const rate = (SAMPLE_RATES[rateIndex] ?? 0) / (mpeg1 ? 1 : version === 2 ? 2 : 4);
  const kbps = (mpeg1 ? BITRATES.mpeg1 : BITRATES.mpeg2)[bitrateIndex] ?? 0;
  return Math.floor(((mpeg1 ? 144 : 72) * kbps * 1000) / rate) + padding;
}

/** MP3: frames follow one another from the tag to the end; the last one is not cut. */
async function mp3Frames(fh: FileHandle, size: number): Promise<Completeness> {
  let at = 0;
  const id3 = await readAt(fh, 0, 10);
  if (id3.toString('latin1', 0, 3) === 'ID3') {
    const s = (k: number) => (id3[k] ?? 0) & 0x7f;
    at = 10 + ((s(6) << 21) | (s(7) << 14) | (s(8) << 7) | s(9)) + (((id3[5] ?? 0) & 0x10) !== 0 ? 10 : 0);
    if (at > size) return { whole: false, why: `its ID3 tag needs ${at} bytes and it has ${size}` };
  }
  let frames = 0;
  while (at < size) {
    const chunk = await readAt(fh, at, Math.min(READ, size - at));
    let i = 0;
    let length = frameLength(chunk, 0);
    while (length > 0 && i + length <= chunk.length) {
      i += length;
      frames++;
      length = frameLength(chunk, i);
    }
    if (length === 0 && i + 4 > chunk.length && at + chunk.length < size) {
      at += i; // a header across the chunk's end
      continue;
    }
    if (length === 0) {
      // No frame here: the end, or what a file may carry after its frames.
      return at + i >= size ? wholeIf(frames) : endTags(chunk.subarray(i), frames);
    }
    if (at + i + length > size) return { whole: false, why: `its last MP3 frame is cut at byte ${size}` };
    at += i; // a frame across the chunk's end: read on from its start
  }
  return wholeIf(frames);
}

const wholeIf = (frames: number): Completeness => (frames > 0 ? { whole: true } : { whole: 'unknown' });

/** What may follow the last frame: an ID3v1 tag, an APE or Lyrics tag. Anything else: cannot tell. */
function endTags(rest: Buffer, frames: number): Completeness {
  if (frames === 0) return { whole: 'unknown' };
  const text = rest.toString('latin1', 0, 8);
  if (text.startsWith('TAG') || text.startsWith('APETAGEX') || text.startsWith('LYRICS'))
    return { whole: true };
  return { whole: 'unknown' };
}
