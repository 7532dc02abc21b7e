import type { Language } from '../../../shared/contract/account';
import type { BatchRequestInput } from '../../../shared/contract/batches';
import type {
  DefaultAudio,
  LoudnessTarget,
  PackageFormat,
  SubtitleFormats,
} from '../../../shared/contract/deliver';
import type { ApiGeneration, OutputNaming, OutputSelection, Send } from '../../../shared/contract/jobs';
import type { PresetOptions, PresetOptionsInput } from '../../../shared/contract/presets';
import type { Settings } from '../../../shared/contract/settings';

/** What a batch (the Add sheet) and a watched folder both choose: where to, how, and what comes back. */
export interface PresetDraft {
  to: readonly string[];
  from: string;
  studio: boolean;
  api: ApiGeneration;
  outputs: OutputSelection;
  /** Empty: beside each source. */
  outDir: string;
  naming: OutputNaming;
  /** v2 only: upload a file for its first language and make the others from the service's copy. */
  uploadOnce: boolean | 'auto';
  /**
   * A video's sound alone (its video rebuilt here), or the whole file: always said, so the sheet shows what
   * the request asks for (a watched folder's preset from before this choice existed reads as `audio`).
   */
  send: Send;
  /** Which audio track of each source is dubbed: `first`, a number (`2`) or a language (`eng`). */
  audioTrack: string;
  /** One file per source with every language (none, MKV or MP4), its default sound, the subtitle formats. */
  package: PackageFormat;
  defaultAudio: DefaultAudio;
  subtitles: SubtitleFormats;
  /** What QC checks each dub's loudness against. */
  loudness: LoudnessTarget;
}

/** The delivery fields of a draft, as a batch or a preset takes them. */
export function deliverOf(p: PresetDraft) {
  // A default sound naming a language no longer in the batch goes back to the original.
  const defaultAudio =
    p.defaultAudio === 'original' || p.to.includes(p.defaultAudio) ? p.defaultAudio : 'original';
  return { package: p.package, subtitles: [...p.subtitles], defaultAudio, loudness: p.loudness };
}

/** A new draft's choices; a batch's (not a watched folder's) starts in the folder this face used last. */
export function presetFromSettings(settings: Settings | null, batch = false): PresetDraft {
  const d = settings?.defaults;
  return {
    to: d?.languages ?? [],
    from: d?.from ?? 'auto',
    studio: d?.studio ?? false,
    api: d?.api ?? 'v2',
    outputs: d?.outputs ?? 'default',
    // Where this face saved its last batch, else the settings' default folder, else beside each source.
    outDir: (batch ? settings?.lastOutDir : null) ?? d?.outDir ?? '',
    naming: 'suffix',
    uploadOnce: d?.uploadOnce ?? 'auto',
    package: 'none',
    defaultAudio: 'original',
    subtitles: ['vtt'],
    loudness: 'broadcast',
    send: 'audio',
    audioTrack: 'first',
  };
}

/** The target languages the chosen generation takes (legacy takes 17); the others are left out, and shown so. */
export function usableLanguages(
  preset: Pick<PresetDraft, 'to' | 'api'>,
  languages: readonly Language[],
): string[] {
  if (preset.api !== 'legacy') return [...preset.to];
  const legacy = new Set(languages.filter((l) => l.legacy).map((l) => l.code));
  return preset.to.filter((code) => legacy.has(code));
}

export function batchRequest(
  inputs: readonly string[],
  preset: PresetDraft,
  languages: readonly Language[],
): BatchRequestInput {
  return {
    inputs: [...inputs],
    to: usableLanguages(preset, languages),
    from: preset.from,
    studio: preset.studio,
    api: preset.api,
    outputs: preset.outputs,
    naming: preset.naming,
    uploadOnce: preset.uploadOnce,
    ...deliverOf(preset),
    send: preset.send,
    audioTrack: preset.audioTrack,
    ...(preset.outDir.trim() ? { outDir: preset.outDir.trim() } : {}),
  };
}

/** A named preset's options as the form's draft (what the preset does not say keeps the draft's). */
export function draftOfPreset(options: PresetOptions, draft: PresetDraft): PresetDraft {
  return {
    ...draft,
    to: options.to,
    from: options.from,
    studio: options.studio,
    api: options.api,
    outputs: options.outputs,
    outDir: options.outDir ?? '',
    naming: options.naming,
    uploadOnce: options.uploadOnce,
    // A preset saved without saying what it sends leaves the draft's choice.
    send: options.send ?? draft.send,
    audioTrack: options.audioTrack,
    package: options.package,
    defaultAudio: options.defaultAudio,
    subtitles: options.subtitles,
    loudness: options.loudness,
  };
}

/** The form's draft as a named preset's options. */
export function presetOptionsOf(draft: PresetDraft): PresetOptionsInput {
  const { inputs: _inputs, ...options } = batchRequest([], draft, []);
  return { ...options, to: [...draft.to] };
}
