import { open } from 'node:fs/promises';
import { findBox, type ReadAt } from '../mp4-boxes';

/** Handler types of timed text in MP4 and QuickTime files: mov_text (`sbtl`, `text`), TTML/WebVTT, captions. */
const SUBTITLE_HANDLERS = new Set(['sbtl', 'text', 'subt', 'clcp']);
/** tkhd's `track_enabled` flag: the track plays unless the viewer turns it off. */
const TRACK_ENABLED = 0x1;
/** A package holds a picture, its sounds and their subtitles: far fewer tracks than this. */
const MOST_TRACKS = 256;

/**
 * Turns every subtitle track of an MP4 off (tkhd's enabled flag cleared, in place: the same bytes, the
 * same length). ffmpeg's MP4 muxer enables the first track of each kind when none is marked default, and
 * players (QuickTime, VLC) then show that language's subtitles to everyone; its disposition gives no way to
 * say no subtitle at all. Returns how many tracks it turned off.
 */
export async function subtitleTracksOff(path: string): Promise<number> {
  const file = await open(path, 'r+');
  try {
    const read: ReadAt = async (position, length) => {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await file.read(buffer, 0, length, position);
      return buffer.subarray(0, bytesRead);
    };
    const moov = await findBox(read, 0, (await file.stat()).size, 'moov');
    if (!moov) throw new Error(`${path} has no movie header (moov box): not an MP4 ffmpeg finished`);
    let turnedOff = 0;
    for (let at = moov.body, n = 0; n < MOST_TRACKS; n++) {
      const trak = await findBox(read, at, moov.end, 'trak');
      if (!trak) break;
      at = trak.end;
      const mdia = await findBox(read, trak.body, trak.end, 'mdia');
      const hdlr = mdia ? await findBox(read, mdia.body, mdia.end, 'hdlr') : null;
      // hdlr: version and flags (4 bytes), pre_defined (4), then the handler type.
      const handler = hdlr ? (await read(hdlr.body + 8, 4)).toString('latin1') : '';
      const tkhd = await findBox(read, trak.body, trak.end, 'tkhd');
      if (!tkhd || !SUBTITLE_HANDLERS.has(handler)) continue;
      // tkhd: version (1 byte), then 24 bits of flags.
      const head = await read(tkhd.body, 4);
      const flags = head.readUInt32BE(0);
      if ((flags & TRACK_ENABLED) === 0) continue;
      head.writeUInt32BE(flags & ~TRACK_ENABLED);
      await file.write(head, 0, 4, tkhd.body);
      turnedOff++;
    }
    return turnedOff;
  } finally {
    await file.close();
  }
}
