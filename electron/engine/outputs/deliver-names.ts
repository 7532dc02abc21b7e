import { extname, join } from 'node:path';
import { resultStem } from './result-stem';

/**
 * Where a source's package goes, relative to its output folder: `Movie.multi.mkv` beside `Movie.es.mp4`
 * (`suffix` naming), or `multi/Movie.mkv` beside `es/Movie.mp4` (`folders`). `multi` is the word release
 * names use for a file with several sound tracks: the file keeps the source's name, so a media server files
 * it under the same title, and it can never be taken for the source itself or for one language's result
 * (`Movie.es.mp4`, whose `.es` players read as that file's language). A name too long for the file system
 * is shortened as the results' are (`resultStem`), so the package keeps their stem.
 */
export function packageName(naming: 'suffix' | 'folders', stem: string, ext: string): string {
  const short = resultStem(stem);
  return naming === 'folders' ? join('multi', `${short}.${ext}`) : `${short}.multi.${ext}`;
}

/** The SubRip twin of a WebVTT result: `Movie.es.srt` beside `Movie.es.vtt` (`(2)` variants kept). */
export function srtBeside(vttPath: string): string {
  const ext = extname(vttPath);
  return `${vttPath.slice(0, vttPath.length - ext.length)}.srt`;
}
