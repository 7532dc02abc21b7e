import type { OutputType } from '../../../../shared/api/common';
import type { DubV2 } from '../../../../shared/api/v2';
import { DubdeskError } from '../../../../shared/contract/errors';
import type { OutputSelection } from '../../../../shared/contract/jobs';

/**
 * What the service makes from a sound alone that is no use here: a "video" of that sound, the sound sent
 * back as the original, a poster of no picture. The dubbed video is made here instead (`translated_mp4`).
 */
const NOT_FROM_SOUND: ReadonlySet<OutputType> = new Set([
  'translated_mp4',
  'translated',
  'original',
  'original_mp4',
  'poster',
]);

export interface AudioPathOutputs {
  /** The job's results, `translated_mp4` among them when the video is wanted (it is made here). */
  wanted: OutputType[];
  /** What is fetched from the service into the results. */
  download: OutputType[];
  /** The dubbed video is made here from the dubbed sound. */
  rebuild: boolean;
}

/**
 * The audio path's outputs: the user's choice read against what the service offers from a sound plus the
 * video made here, so `default` for a video still means the dubbed video and its subtitles.
 */
export function audioPathOutputs(
  selection: OutputSelection,
  dub: DubV2,
  choose: (selection: OutputSelection, dub: DubV2) => OutputType[],
): AudioPathOutputs {
  const offered = Object.entries(dub.outputs).filter(([t]) => !NOT_FROM_SOUND.has(t as OutputType));
  const sound = dub.outputs.translated_mp3;
  const asOffered = {
    ...dub,
    outputs: Object.fromEntries([...offered, ...(sound ? [['translated_mp4', sound]] : [])]),
  };
  const wanted = choose(selection, asOffered);
  const rebuild = wanted.includes('translated_mp4');
  if (rebuild && !sound)
    throw new DubdeskError('service', 'the service offered no dubbed audio to make the dubbed video from', {
      remedy: 'Retry later; if it happens again, dub the file with --send file.',
    });
  return { wanted, download: wanted.filter((t) => t !== 'translated_mp4'), rebuild };
}
