import { useId } from 'react';
import {
  describeTrack,
  trackLabel,
  trackLanguageTag,
  type AudioTrackInfo,
} from '../../../shared/contract/audio-track';
import type { ContractError } from '../../../shared/contract/errors';
import { useApp } from '../store';
import { ErrorText, errorFor } from './ErrorText';

/** When no file was read yet (a watched folder's settings): track numbers a person may want. */
const UNREAD_NUMBERS = [2, 3, 4, 5, 6];

interface Props {
  value: string;
  onChange: (audioTrack: string) => void;
  error: ContractError | null;
  /** List the tracks the Add sheet's estimate read (a watched folder's settings have no files yet). */
  tracksOfEstimate: boolean;
}

/**
 * The tracks of the batch's files, as the estimate read them: each number once, named as the first file that
 * has it names it ("2 · fre · Commentary · stereo").
 */
function tracksOfBatch(files: readonly { audioTracks?: AudioTrackInfo[] | undefined }[]): AudioTrackInfo[] {
  const byNumber = new Map<number, AudioTrackInfo>();
  for (const f of files)
    for (const t of f.audioTracks ?? []) if (!byNumber.has(t.number)) byNumber.set(t.number, t);
  return [...byNumber.values()].sort((a, b) => a.number - b.number);
}

/**
 * Which of each source's audio tracks is dubbed: the first (default), one by its number (listed by language,
 * title and channels once the files are read), or one by its language. A file without the track chosen is
 * refused in the estimate, saying which tracks it has.
 */
export function AudioTrackPicker({ value, onChange, error, tracksOfEstimate }: Props) {
  const id = useId();
  const estimated = useApp((s) => s.estimate?.files);
  const files = tracksOfEstimate ? (estimated ?? []) : [];
  const languages = useApp((s) => s.languages);
  const read = tracksOfBatch(files);
  const numbered = read.length > 1 ? read.filter((t) => t.number > 1) : [];
  const numbers = read.length > 0 ? numbered.map((t) => t.number) : UNREAD_NUMBERS;
  // The batch's own languages first, then every language the service knows (`en` names `eng` too).
  const own = [...new Set(read.flatMap((t) => (t.language ? [t.language] : [])))];
  const known = languages.filter((l) => !own.includes(trackLanguageTag(l.code) ?? ''));
  const listed = new Set(['first', ...numbers.map(String), ...own, ...known.map((l) => l.code)]);
  const trackError = errorFor(error, 'audioTrack') ?? errorFor(error, 'preset.audioTrack');
  const first = read[0];
  return (
    <div className="field">
      <label className="field-label" htmlFor={`${id}-track`}>
        Audio track
      </label>
      <select
        id={`${id}-track`}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={`${id}-track-help${trackError ? ` ${id}-track-error` : ''}`}
        aria-invalid={trackError !== null || undefined}
      >
        <option value="first">
          {first && read.length > 1 ? `${trackLabel(first)} (the first)` : 'The first'}
        </option>
        {!listed.has(value) && <option value={value}>{describeTrack(value)}</option>}
        <optgroup label={read.length > 0 ? 'Tracks of these files' : 'By number'}>
          {numbers.map((n) => {
            const t = numbered.find((x) => x.number === n);
            return (
              <option key={n} value={String(n)}>
                {t ? trackLabel(t) : `Track ${n}`}
              </option>
            );
          })}
        </optgroup>
        <optgroup label="By language">
          {own.map((tag) => (
            <option key={tag} value={tag}>
              The {tag} track
            </option>
          ))}
          {known.map((l) => (
            <option key={l.code} value={l.code}>
              {l.name}
            </option>
          ))}
        </optgroup>
      </select>
      <p className="hint" id={`${id}-track-help`}>
        {read.length > 1
          ? 'The sound that is dubbed; the package keeps the others after it.'
          : 'The sound that is dubbed: the first unless you choose. A file without the track chosen is left out, saying which it has.'}
      </p>
      <ErrorText error={trackError} id={`${id}-track-error`} />
    </div>
  );
}
