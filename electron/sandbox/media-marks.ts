import { appendFile, copyFile, open, writeFile } from 'node:fs/promises';

/**
 * The real service's outputs differ from one another: the dub is not the original, its MP3 is not its MP4.
 * The sandbox does not translate, so each output carries a mark of its own (naming its type and, for the
 * dubbed ones, the target language): clients that keep identical content once see what they would see.
 */

/**
 * `src` copied to `dest` with a comment the format allows, so sniffing still sees the same type: a `free`
 * box after an ISO media file (MP4, MOV), an ID3v1 tag after anything else (MP3). With ffmpeg, the comment
 * is a real tag instead (media-outputs.ts).
 */
export async function markedCopy(src: string, dest: string, comment: string): Promise<void> {
  await copyFile(src, dest);
  await appendFile(dest, (await isIsoMedia(src)) ? freeBox(comment) : id3v1(comment));
}

async function isIsoMedia(path: string): Promise<boolean> {
  const file = await open(path, 'r');
  try {
    const head = Buffer.alloc(8);
    await file.read(head, 0, 8, 0);
    return ['ftyp', 'moov', 'mdat', 'free', 'wide'].includes(head.toString('latin1', 4, 8));
  } finally {
    await file.close();
  }
}

/** An ISO BMFF `free` box: players skip it. */
function freeBox(text: string): Buffer {
  const body = Buffer.from(`dubdesk sandbox: ${text}`, 'utf8');
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length + 8, 0);
  head.write('free', 4, 'latin1');
  return Buffer.concat([head, body]);
}

/** A 128-byte ID3v1 tag (title and comment), the trailer MP3 players read or skip. */
function id3v1(text: string): Buffer {
  const tag = Buffer.alloc(128);
  tag.write('TAG', 0, 'latin1');
  tag.write(text.slice(0, 30), 3, 30, 'latin1');
  tag.write(text.slice(0, 28), 97, 28, 'latin1');
  tag[127] = 255; // no genre
  return tag;
}

/** One silent MPEG-1 Layer III frame, 128 kb/s at 44.1 kHz: 417 bytes, 1152 samples. */
const SILENT_FRAME = (() => {
  const frame = Buffer.alloc(417);
  frame.writeUInt32BE(0xfffb9064, 0);
  return frame;
})();

/** Without ffmpeg, MP3 stands in for a video's audio: silence as long as the media, a valid MPEG stream. */
export async function silentMp3(dest: string, seconds: number): Promise<void> {
  const frames = Math.max(1, Math.ceil((seconds * 44_100) / 1152));
  await writeFile(dest, Buffer.concat(Array.from({ length: frames }, () => SILENT_FRAME)));
}
