import type { OutputType } from '../../../shared/api/common';

/** The only formats Dubdesk saves: media a player opens, never something a double-click would run. */
export type SavedFormat = 'mp4' | 'mov' | 'm4a' | 'mp3' | 'wav' | 'jpg' | 'png' | 'vtt' | 'srt';

const SAVED: readonly SavedFormat[] = ['mp4', 'mov', 'm4a', 'mp3', 'wav', 'jpg', 'png', 'vtt', 'srt'];
const VIDEO_OR_AUDIO: readonly SavedFormat[] = ['mp4', 'mov', 'm4a', 'mp3', 'wav'];
/** What each output type may be; its extension on disk is the format the bytes are, from this list. */
const FORMATS: Record<OutputType, readonly SavedFormat[]> = {
  translated_mp4: ['mp4', 'mov'],
  original_mp4: ['mp4', 'mov'],
  translated: VIDEO_OR_AUDIO,
  original: VIDEO_OR_AUDIO,
  translated_mp3: ['mp3'],
  original_mp3: ['mp3'],
  translated_subtitle: ['vtt', 'srt'],
  original_subtitle: ['vtt', 'srt'],
  poster: ['jpg', 'png'],
};

/** The format an output type usually is: its name before anything is downloaded. */
export const USUAL_FORMAT: Record<OutputType, SavedFormat> = {
  translated_mp4: 'mp4',
  original_mp4: 'mp4',
  translated: 'mp4',
  original: 'mp4',
  translated_mp3: 'mp3',
  original_mp3: 'mp3',
  translated_subtitle: 'vtt',
  original_subtitle: 'vtt',
  poster: 'jpg',
};

/** How many bytes of a file's start the sniffer reads (file-type's own minimum for the formats above). */
export const SNIFF_BYTES = 4100;

/** Types a storage server sends for its own pages and errors, never for a dub's files. */
const DOCUMENT_TYPES = /^(text\/html|application\/(json|xml|problem\+json)|text\/xml)$/i;

const SUBTITLE_TEXT: readonly [SavedFormat, RegExp][] = [
  ['vtt', /^WEBVTT(?:[ \t]|\r?\n|$)/],
  ['srt', /^\d+[ \t]*\r?\n\d{1,2}:\d{2}:\d{2}[,.]\d{3}[ \t]*-->/],
];

export type Sniffed =
  | { ok: true; format: SavedFormat }
  /** `page`: a web page or an error document answered with 200 in place of the file, worth asking again. */
  | { ok: false; page: boolean; what: string };

/** What the downloaded bytes are, and whether they may be saved as output `type`. */
export async function sniffOutput(
  type: OutputType,
  contentType: string | null,
  head: Buffer,
): Promise<Sniffed> {
  const mime = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  const allowed = FORMATS[type];
  // Loaded with the first download: commands that fetch nothing start without it.
  const { fileTypeFromBuffer } = await import('file-type');
  const detected = await fileTypeFromBuffer(head);
  const found: SavedFormat | undefined = detected
    ? normalised(detected.ext)
    : subtitleFormat(head.toString('utf8').replace(/^\uFEFF/, ''));
  if (found && allowed.includes(found)) return { ok: true, format: found };
  if (DOCUMENT_TYPES.test(mime)) return { ok: false, page: true, what: `a ${mime} document` };
  const start = head
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (!detected && /^<(!doctype|html|\?xml|head|body)/i.test(start))
    return { ok: false, page: true, what: 'a web page' };
  if (!detected && /^[{[]/.test(start)) return { ok: false, page: true, what: 'a JSON document' };
  const what = detected
    ? `a .${detected.ext} file (${detected.mime})`
    : found
      ? `a .${found} file`
      : `a file of no known media format${mime ? ` (sent as ${mime})` : ''}`;
  return { ok: false, page: false, what };
}

function normalised(ext: string): SavedFormat | undefined {
  if (ext === 'm4v') return 'mp4';
  return SAVED.find((f) => f === ext);
}

function subtitleFormat(text: string): SavedFormat | undefined {
  return SUBTITLE_TEXT.find(([, re]) => re.test(text))?.[0];
}

/** The formats output `type` may be saved as. */
export function formatsOf(type: OutputType): readonly SavedFormat[] {
  return FORMATS[type];
}

/** The formats output `type` may be saved as, for a message. */
export function formatsFor(type: OutputType): string {
  return FORMATS[type].map((f) => f.toUpperCase()).join(', ');
}
