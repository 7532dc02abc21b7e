import { useId, type ReactNode } from 'react';
import type { ContractError } from '../../../shared/contract/errors';
import { API_GENERATIONS } from '../../../shared/contract/jobs';
import { languageName } from '../../../shared/languages';
import { useApp, useBridge } from '../store';
import type { PresetDraft } from '../store/preset';
import { AudioTrackPicker } from './AudioTrackPicker';
import { DeliverControls } from './DeliverControls';
import { ErrorText, errorFor } from './ErrorText';
import { LanguagePicker } from './LanguagePicker';
import { OutputsPicker } from './OutputsPicker';

const API_HELP: Record<PresetDraft['api'], string> = {
  v2: 'v2 (recommended): every language, files and links.',
  v1: 'v1: every language; files only, uploaded first.',
  legacy: 'Legacy: 17 languages and MP4 video only. Others are greyed out and left out.',
};

interface Props {
  value: PresetDraft;
  onChange: (patch: Partial<PresetDraft>) => void;
  error: ContractError | null;
  /** The watched-folder form says "inside the folder" for an empty output folder. */
  outDirPlaceholder?: string;
  /** Web: where files sent from the browser are saved when no folder is chosen (their own is hidden). */
  uploadsFolder?: string | null;
  /** The Add sheet's "Sends 9.6 MiB (audio) instead of 600 MiB", under the send choice it is about. */
  sendsSummary?: ReactNode;
  /** The Add sheet: its files' audio tracks, as the estimate read them, are listed to choose from. */
  tracksOfEstimate?: boolean;
}

/** The choices a batch and a watched folder share: languages, source language, quality, where, what, how. */
export function PresetControls(props: Props) {
  const { value, onChange, error, outDirPlaceholder = 'Beside each source', uploadsFolder = null } = props;
  const { sendsSummary = null, tracksOfEstimate = false } = props;
  const bridge = useBridge();
  const languages = useApp((s) => s.languages);
  const id = useId();
  const toError = errorFor(error, 'to') ?? errorFor(error, 'preset.to');
  const outError = errorFor(error, 'outDir') ?? errorFor(error, 'preset.outDir');
  const legacy = value.api === 'legacy';
  const leftOut = legacy ? value.to.filter((c) => !languages.find((l) => l.code === c)?.legacy) : [];

  return (
    <div className="preset">
      {/* The main choice first (UI.md): Ctrl+Enter adds from here, no need to Tab through the rest. */}
      <div className="field">
        <span className="field-label" id={`${id}-to`}>
          Dub into
        </span>
        <LanguagePicker
          value={value.to}
          onChange={(to) => onChange({ to })}
          legacyOnly={legacy}
          describedBy={toError ? `${id}-to-error` : undefined}
          invalid={toError !== null}
        />
        {leftOut.length > 0 && (
          <p className="hint warn">
            The legacy API does not take {leftOut.map(languageName).join(', ')}: left out of this batch.
          </p>
        )}
        <ErrorText error={toError} id={`${id}-to-error`} />
      </div>
      <div className="field-row">
        <label className="field">
          <span className="field-label">From</span>
          <select value={value.from} onChange={(e) => onChange({ from: e.target.value })}>
            <option value="auto">Detect automatically</option>
            {languages.map((l) => (
              <option key={l.code} value={l.code} disabled={legacy && !l.legacy}>
                {l.name}
              </option>
            ))}
          </select>
        </label>
        <label className="check-label studio">
          <input
            type="checkbox"
            checked={value.studio}
            onChange={(e) => onChange({ studio: e.target.checked })}
          />
          Studio quality <span className="muted">(2× credits)</span>
        </label>
      </div>

      <div className="field">
        <label className="field-label" htmlFor={`${id}-out`}>
          Save to
        </label>
        <div className="input-with-button">
          <input
            id={`${id}-out`}
            type="text"
            value={value.outDir}
            placeholder={outDirPlaceholder}
            aria-invalid={outError !== null || undefined}
            aria-describedby={
              [outError && `${id}-out-error`, uploadsFolder && `${id}-out-uploads`]
                .filter(Boolean)
                .join(' ') || undefined
            }
            onChange={(e) => onChange({ outDir: e.target.value })}
          />
          {bridge.shell === 'electron' && (
            <button
              type="button"
              onClick={() =>
                void bridge.pickFolder().then((p) => {
                  if (p) onChange({ outDir: p });
                })
              }
            >
              Choose…
            </button>
          )}
        </div>
        {uploadsFolder && !value.outDir.trim() && (
          <p className="hint" id={`${id}-out-uploads`}>
            Files sent from this browser have no folder of their own on this machine: a batch with them is
            saved in <span className="path">{uploadsFolder}</span>.
          </p>
        )}
        <ErrorText error={outError} id={`${id}-out-error`} />
      </div>

      <OutputsPicker value={value.outputs} onChange={(outputs) => onChange({ outputs })} />

      <fieldset className="naming">
        <legend>Names</legend>
        <label className="check-label">
          <input
            type="radio"
            name={`${id}-naming`}
            checked={value.naming === 'suffix'}
            onChange={() => onChange({ naming: 'suffix' })}
          />
          Beside each other <span className="muted">(Movie.es.mp4)</span>
        </label>
        <label className="check-label">
          <input
            type="radio"
            name={`${id}-naming`}
            checked={value.naming === 'folders'}
            onChange={() => onChange({ naming: 'folders' })}
          />
          A folder per language <span className="muted">(es/Movie.mp4)</span>
        </label>
      </fieldset>

      <fieldset className="send" aria-describedby={`${id}-send-help`}>
        <legend>Send to the service</legend>
        <label className="check-label">
          <input
            type="radio"
            name={`${id}-send`}
            checked={value.send === 'audio'}
            onChange={() => onChange({ send: 'audio' })}
          />
          Only the sound <span className="muted">(each language’s video is made here)</span>
        </label>
        <label className="check-label">
          <input
            type="radio"
            name={`${id}-send`}
            checked={value.send === 'file'}
            onChange={() => onChange({ send: 'file' })}
          />
          The whole file <span className="muted">(the service’s own dubbed video)</span>
        </label>
        <p className="hint" id={`${id}-send-help`}>
          {value.send === 'audio'
            ? 'A fraction of the bytes; your picture never leaves this computer and is never re-encoded. Without ffmpeg the whole file is sent.'
            : 'The whole video goes up for every language, and the service re-encodes the picture it sends back.'}
        </p>
        {sendsSummary}
      </fieldset>

      <AudioTrackPicker
        value={value.audioTrack}
        onChange={(audioTrack) => onChange({ audioTrack })}
        error={error}
        tracksOfEstimate={tracksOfEstimate}
      />

      <DeliverControls value={value} onChange={onChange} />

      <details className="advanced" open={legacy || undefined}>
        <summary>Advanced</summary>
        <label className="field">
          <span className="field-label">API generation</span>
          <select
            value={value.api}
            onChange={(e) => onChange({ api: e.target.value as PresetDraft['api'] })}
            aria-describedby={`${id}-api-help`}
          >
            {API_GENERATIONS.map((g) => (
              <option key={g} value={g}>
                {g}
              </option>
            ))}
          </select>
        </label>
        <p className="hint" id={`${id}-api-help`}>
          {API_HELP[value.api]}
        </p>
        <label className="field">
          <span className="field-label">Upload each file once</span>
          <select
            value={String(value.uploadOnce)}
            disabled={value.api !== 'v2'}
            onChange={(e) =>
              onChange({ uploadOnce: e.target.value === 'auto' ? 'auto' : e.target.value === 'true' })
            }
            aria-describedby={`${id}-once-help`}
          >
            <option value="auto">Automatic (files of 50 MiB or more, several languages)</option>
            <option value="true">Always</option>
            <option value="false">Never</option>
          </select>
        </label>
        <p className="hint" id={`${id}-once-help`}>
          {value.api === 'v2'
            ? 'The first language uploads the file; the others are made from the copy the service already holds, once that first dub is done.'
            : 'v2 only: v1 and legacy upload the file for every language.'}
        </p>
      </details>
    </div>
  );
}
