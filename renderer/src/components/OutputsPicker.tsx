import type { OutputSelection } from '../../../shared/contract/jobs';
import type { OutputType } from '../../../shared/api/common';

const MAIN: { type: OutputType; label: string }[] = [
  { type: 'translated_mp4', label: 'Dubbed video' },
  { type: 'translated_subtitle', label: 'Subtitles' },
  { type: 'translated_mp3', label: 'Dubbed audio' },
];
const MORE: { type: OutputType; label: string }[] = [
  { type: 'original_subtitle', label: 'Original-language subtitles' },
  { type: 'original_mp3', label: 'Original audio' },
  { type: 'poster', label: 'Poster image' },
];
/** What `default` stands for in this picker: the dubbed media and the subtitles (audio sources get MP3). */
const DEFAULT_SET = ['translated_mp4', 'translated_subtitle'];

function checkedSet(value: OutputSelection): Set<OutputType> {
  if (value === 'default') return new Set(DEFAULT_SET as OutputType[]);
  if (value === 'all') return new Set([...MAIN, ...MORE].map((o) => o.type));
  return new Set(value);
}

function toSelection(set: Set<OutputType>): OutputSelection | null {
  if (set.size === 0) return null;
  if (set.size === DEFAULT_SET.length && DEFAULT_SET.every((t) => set.has(t as OutputType))) return 'default';
  return [...set];
}

/** Which files to fetch for each dub: video, subtitles, audio, and more under a fold. */
export function OutputsPicker({
  value,
  onChange,
}: {
  value: OutputSelection;
  onChange: (v: OutputSelection) => void;
}) {
  const set = checkedSet(value);
  const all = value === 'all';
  const box = (o: { type: OutputType; label: string }) => (
    <label key={o.type} className="check-label">
      <input
        type="checkbox"
        checked={all || set.has(o.type)}
        disabled={all}
        onChange={(e) => {
          const next = new Set(set);
          if (e.target.checked) next.add(o.type);
          else next.delete(o.type);
          const sel = toSelection(next);
          if (sel) onChange(sel);
        }}
      />
      {o.label}
    </label>
  );
  return (
    <fieldset className="outputs">
      <legend>Files to fetch</legend>
      <div className="check-row">{MAIN.map(box)}</div>
      <details className="more">
        <summary>More…</summary>
        <div className="check-row">
          {MORE.map(box)}
          <label className="check-label">
            <input
              type="checkbox"
              checked={all}
              onChange={(e) => onChange(e.target.checked ? 'all' : 'default')}
            />
            Everything the service offers
          </label>
        </div>
      </details>
    </fieldset>
  );
}
