/**
 * The only demuxers a file that came from the service is read with: the formats Dubdesk saves its outputs
 * as (MP4, MOV and M4A are `mov`; MP3; WAV) and the Matroska it makes itself. Left to itself ffmpeg picks a
 * demuxer by the file's content, after skipping an ID3 tag, and some demuxers open the files a file names:
 * a "dubbed sound" that sniffs as an MP3 (its ID3 tag longer than the sniff) and reads on as an HLS
 * playlist would make ffmpeg read whatever recording of the user's it lists.
 */
const SERVICE_DEMUXERS = 'mov,mp3,wav,matroska';

/** ffmpeg's or ffprobe's input options for such a file: only those demuxers. */
export const serviceFormats = ['-format_whitelist', SERVICE_DEMUXERS] as const;

/** `-i path` for a file that came from the service (or was made here from one). */
export const fromService = (path: string): string[] => [...serviceFormats, '-i', path];
