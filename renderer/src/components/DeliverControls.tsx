import { useId } from 'react';
import { LOUDNESS_TARGETS, type SubtitleFormat } from '../../../shared/contract/deliver';
import { languageName } from '../../../shared/languages';
import type { PresetDraft } from '../store/preset';

interface Props {
  value: PresetDraft;
  onChange: (patch: Partial<PresetDraft>) => void;
}

const SUBTITLE_LABELS: Record<SubtitleFormat, string> = {
  vtt: 'WebVTT (.vtt)',
  srt: 'SubRip (.srt)',
};

/**
 * What is handed on besides each language's files, made on this machine and never paid for: one file per
 * source with every language, the subtitle formats, and the loudness QC checks each dub against.
 */
export function DeliverControls({ value, onChange }: Props) {
  const id = useId();
  const toggle = (f: SubtitleFormat, on: boolean) => {
    const next = on ? [...new Set([...value.subtitles, f])] : value.subtitles.filter((x) => x !== f);
    // At least one format: the last one cannot be unticked.
    if (next.length > 0) onChange({ subtitles: next });
  };
  return (
    <fieldset className="deliver">
      <legend>Hand on</legend>
      <div className="field-row">
        <label className="field">
          <span className="field-label">Package</span>
          <select
            value={value.package}
            onChange={(e) => onChange({ package: e.target.value as PresetDraft['package'] })}
            aria-describedby={`${id}-package-help`}
          >
            <option value="none">None</option>
            <option value="mkv">MKV with every language</option>
            <option value="mp4">MP4 with every language</option>
          </select>
        </label>
        <label className="field">
          <span className="field-label">Plays first</span>
          <select
            value={value.defaultAudio}
            disabled={value.package === 'none'}
            onChange={(e) => onChange({ defaultAudio: e.target.value })}
          >
            <option value="original">The original sound</option>
            {value.to.map((code) => (
              <option key={code} value={code}>
                {languageName(code)} (dubbed)
              </option>
            ))}
          </select>
        </label>
      </div>
      <p className="hint" id={`${id}-package-help`}>
        {value.package === 'none'
          ? 'One file per language, as the service makes them.'
          : 'Once every language of a file is done: one file beside them with the picture as it is, the original sound first, each dub, and the subtitles, each track named. Made here; nothing is charged.'}
      </p>
      <div className="field-row subtitles-row">
        <span className="field-label" id={`${id}-subs`}>
          Subtitles
        </span>
        <span role="group" aria-labelledby={`${id}-subs`} className="check-group">
          {(['vtt', 'srt'] as const).map((f) => (
            <label key={f} className="check-label">
              <input
                type="checkbox"
                checked={value.subtitles.includes(f)}
                disabled={value.subtitles.length === 1 && value.subtitles.includes(f)}
                onChange={(e) => toggle(f, e.target.checked)}
              />
              {SUBTITLE_LABELS[f]}
            </label>
          ))}
        </span>
      </div>
      <label className="field">
        <span className="field-label">Loudness check</span>
        <select
          value={value.loudness}
          onChange={(e) => onChange({ loudness: e.target.value as PresetDraft['loudness'] })}
        >
          {(['broadcast', 'web'] as const).map((t) => (
            <option key={t} value={t}>
              {LOUDNESS_TARGETS[t].lufs} LUFS ±{LOUDNESS_TARGETS[t].tolerance}: {LOUDNESS_TARGETS[t].label}
            </option>
          ))}
        </select>
      </label>
    </fieldset>
  );
}
