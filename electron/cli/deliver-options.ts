import { InvalidArgumentError, Option, type Command } from 'commander';
import {
  DefaultAudioSchema,
  PACKAGE_FORMATS,
  SUBTITLE_FORMATS,
  SubtitleFormatsSchema,
  type DefaultAudio,
  type LoudnessTarget,
  type PackageFormat,
  type SubtitleFormats,
} from '../../shared/contract/deliver';

/** What `add`, `dub` and `watch` take about what is handed on (see BatchRequest). */
export interface DeliverFlags {
  package: PackageFormat;
  subtitles: SubtitleFormats;
  defaultAudio: DefaultAudio;
  loudness: LoudnessTarget;
}

/** `vtt,srt`, `srt`…: each format once, only those Dubdesk writes. */
export function subtitleFormats(raw: string): SubtitleFormats {
  const list = raw
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const parsed = SubtitleFormatsSchema.safeParse([...new Set(list)]);
  const unknown = list.filter((f) => !(SUBTITLE_FORMATS as readonly string[]).includes(f));
  if (unknown.length > 0 || !parsed.success)
    throw new InvalidArgumentError(
      `${unknown.length ? `unknown subtitle format ${unknown.join(', ')}` : 'no subtitle format'}; choose from ${SUBTITLE_FORMATS.join(', ')} (e.g. vtt,srt)`,
    );
  return parsed.data;
}

function defaultAudio(raw: string): DefaultAudio {
  const parsed = DefaultAudioSchema.safeParse(raw.trim().toLowerCase());
  if (!parsed.success)
    throw new InvalidArgumentError('expected original, or a language of the batch such as es');
  return parsed.data;
}

export function addDeliverOptions(cmd: Command): Command {
  return cmd
    .addOption(
      new Option(
        '--package <format>',
        'also make one file per source with every language in it (the picture as it is, the original sound first, then each dub, and the subtitles)',
      )
        .choices([...PACKAGE_FORMATS])
        .default('none'),
    )
    .option(
      '--subtitles <formats>',
      "subtitle formats beside the media: vtt (the service's WebVTT), srt (converted from it), or vtt,srt",
      subtitleFormats,
      ['vtt'] as SubtitleFormats,
    )
    .option(
      '--default-audio <lang>',
      "the package's sound players start with: original, or a language of the batch",
      defaultAudio,
      'original' as DefaultAudio,
    )
    .addOption(
      new Option(
        '--loudness <target>',
        'what QC checks each dub against: broadcast (-23 LUFS, EBU R128) or web (-14 LUFS)',
      )
        .choices(['broadcast', 'web'])
        .default('broadcast'),
    );
}

/** The batch fields of the flags. */
export const deliverRequest = (f: DeliverFlags) => ({
  package: f.package,
  subtitles: f.subtitles,
  defaultAudio: f.defaultAudio,
  loudness: f.loudness,
});
