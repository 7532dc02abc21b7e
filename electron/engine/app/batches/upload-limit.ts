import type { ApiGeneration } from '../../../../shared/contract/jobs';
import { UPLOAD_LIMIT } from '../../api/limits';
import { formatBytes } from '../../../../shared/format';
import { NO_FFMPEG } from '../../../media-tools/locate';
import { InputError, type ProbedFile } from '../../media/probe';
import type { SendChoice } from './send-plan';

/** "7 h 30 min": a part's length, in whole minutes. */
const hoursWords = (seconds: number) => {
  const minutes = Math.floor(seconds / 60);
  const h = Math.floor(minutes / 60);
  return [h ? `${h} h` : '', minutes % 60 ? `${minutes % 60} min` : ''].filter(Boolean).join(' ');
};

const bytesWords = (bytes: number) => `${formatBytes(bytes)} (${bytes.toLocaleString('en-US')} bytes)`;

/** Why the whole file is sent, as the remedy answers it: the audio path would fit, unless the sound is absent. */
function wholeFileRemedy(file: ProbedFile, why: string | null): string {
  const orShrink = 'or split or compress it first.';
  if (file.kind !== 'video') return 'Split or compress it first.';
  if (why === null)
    return `Send only its sound instead (--send audio, or "Only the sound" in the Send choice), ${orShrink}`;
  if (why === NO_FFMPEG)
    return `Install ffmpeg (or set DUBDESK_FFMPEG to it) so only its sound is sent, ${orShrink}`;
  return `Only its sound would be sent, but ${why}: ${orShrink}`;
}

/**
 * A file whose upload would be over its generation's limit, refused before anything is sent or paid, saying
 * what would be sent and the way out; null when it fits (or the generation has no limit).
 */
export function overUploadLimit(
  file: ProbedFile,
  choice: SendChoice | undefined,
  api: ApiGeneration,
): InputError | null {
  const limit = UPLOAD_LIMIT[api];
  const sent = choice ?? { what: 'file' as const, bytes: file.bytes, why: null, seconds: null };
  if (limit === null || sent.bytes <= limit) return null;
  const over = `over the ${formatBytes(limit)} upload limit of the ${api} API`;
  if (sent.what === 'file')
    return new InputError(
      file.path,
      'too-large',
      `${file.path}: ${bytesWords(file.bytes)} is ${over}${sent.why ? `, and the whole file would be sent: ${sent.why === NO_FFMPEG ? 'no ffmpeg was found to take its sound alone' : sent.why}` : ''}.`,
      wholeFileRemedy(file, sent.why),
    );
  // The sound alone: a very long recording. Parts short enough each fit (a tenth kept for the estimate's error).
  const perSecond = sent.seconds ? sent.bytes / sent.seconds : null;
  const part = perSecond ? Math.floor((0.9 * limit) / perSecond / 60) * 60 : null;
  return new InputError(
    file.path,
    'too-large',
    `${file.path}: even its sound alone, about ${formatBytes(sent.bytes)}, is ${over}.`,
    part && part >= 60
      ? `Split it into parts shorter than ${hoursWords(part)} first, then dub each part.`
      : 'Split it into shorter parts first, then dub each part.',
  );
}
