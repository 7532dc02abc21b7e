import type { Preset } from '../../../shared/contract/presets';
import type { WatchPresetPatch } from '../../../shared/contract/watch';

/**
 * A watched folder's settings from a named preset: the options the two share (languages, quality, outputs,
 * folder, naming, upload once, what is sent, what is handed on). What the folder alone has (after,
 * recursive, credit limit, polling) keeps its own default or flag.
 */
export function watchPresetOf(preset: Preset): WatchPresetPatch {
  const o = preset.options;
  return {
    to: o.to,
    from: o.from,
    studio: o.studio,
    api: o.api,
    outputs: o.outputs,
    naming: o.naming,
    uploadOnce: o.uploadOnce,
    ...(o.outDir ? { outDir: o.outDir } : {}),
    ...(o.send ? { send: o.send } : {}),
    audioTrack: o.audioTrack,
    package: o.package,
    subtitles: o.subtitles,
    defaultAudio: o.defaultAudio,
    loudness: o.loudness,
  };
}
