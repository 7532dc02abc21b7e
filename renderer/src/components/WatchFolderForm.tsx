import { useState, type FormEvent } from 'react';
import type { ContractError } from '../../../shared/contract/errors';
import type { WatchFolder, WatchPresetInput } from '../../../shared/contract/watch';
import { useApp, useBridge } from '../store';
import { deliverOf, presetFromSettings, usableLanguages, type PresetDraft } from '../store/preset';
import { Dialog } from './Dialog';
import { ErrorText, errorElsewhere, errorFor } from './ErrorText';
import { NamedPresets } from './NamedPresets';
import { PresetControls } from './PresetControls';
import { typedWhole } from '../typed-numbers';

interface Props {
  /** Null: a new folder. */
  folder: WatchFolder | null;
  initialPath?: string;
  onClose: () => void;
}

interface Extra {
  after: 'leave' | 'move';
  recursive: boolean;
  /** Empty: no limit. */
  creditLimit: string;
}

/** Add or edit a watched folder: its path, the same preset controls as Add, and what happens afterwards. */
export function WatchFolderForm({ folder, initialPath = '', onClose }: Props) {
  const bridge = useBridge();
  const settings = useApp((s) => s.settings);
  const languages = useApp((s) => s.languages);
  const addFolder = useApp((s) => s.addFolder);
  const updateFolder = useApp((s) => s.updateFolder);
  const [path, setPath] = useState(folder?.path ?? initialPath);
  const [preset, setPreset] = useState<PresetDraft>(() =>
    folder
      ? {
          to: folder.preset.to,
          from: folder.preset.from,
          studio: folder.preset.studio,
          api: folder.preset.api,
          outputs: folder.preset.outputs,
          outDir: folder.preset.outDir ?? '',
          naming: folder.preset.naming,
          uploadOnce: folder.preset.uploadOnce,
          package: folder.preset.package,
          defaultAudio: folder.preset.defaultAudio,
          subtitles: folder.preset.subtitles,
          loudness: folder.preset.loudness,
          send: folder.preset.send ?? 'audio',
          audioTrack: folder.preset.audioTrack,
        }
      : presetFromSettings(settings),
  );
  const [extra, setExtra] = useState<Extra>({
    after: folder?.preset.after ?? 'leave',
    recursive: folder?.preset.recursive ?? false,
    creditLimit: folder?.preset.creditLimit == null ? '' : String(folder.preset.creditLimit),
  });
  const [error, setError] = useState<ContractError | null>(null);
  const [saving, setSaving] = useState(false);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const limit = typedWhole(extra.creditLimit);
    if (limit !== null && !Number.isFinite(limit)) {
      const message = `'${extra.creditLimit.trim()}' is not a whole number of credits, such as 600`;
      setError({ code: 'bad-request', message, field: 'preset.creditLimit' });
      return;
    }
    const watchPreset: WatchPresetInput = {
      to: usableLanguages(preset, languages),
      from: preset.from,
      studio: preset.studio,
      api: preset.api,
      outputs: preset.outputs,
      outDir: preset.outDir.trim() || null,
      naming: preset.naming,
      uploadOnce: preset.uploadOnce,
      ...deliverOf(preset),
      send: preset.send,
      audioTrack: preset.audioTrack,
      after: extra.after,
      recursive: extra.recursive,
      creditLimit: limit,
    };
    setSaving(true);
    const err = folder
      ? await updateFolder(folder.id, { preset: watchPreset })
      : await addFolder(path.trim(), watchPreset);
    setSaving(false);
    setError(err);
    if (!err) onClose();
  }

  const pathError = errorFor(error, 'path');
  return (
    <Dialog
      open
      title={folder ? 'Edit watched folder' : 'Watch a folder'}
      onClose={onClose}
      className="sheet watch-form"
    >
      <form id="watch-form" onSubmit={(e) => void onSubmit(e)}>
        <div className="field">
          <label className="field-label" htmlFor="watch-path">
            Folder
          </label>
          <div className="input-with-button">
            <input
              id="watch-path"
              type="text"
              required
              readOnly={folder !== null}
              value={path}
              placeholder="Full path of a folder, e.g. …/Dubbing/to-es-fr"
              aria-invalid={pathError !== null || undefined}
              onChange={(e) => setPath(e.target.value)}
            />
            {bridge.shell === 'electron' && folder === null && (
              <button type="button" onClick={() => void bridge.pickFolder().then((p) => p && setPath(p))}>
                Choose…
              </button>
            )}
          </div>
          <ErrorText error={pathError} />
          <p className="hint">New media files dropped in this folder are dubbed with the settings below.</p>
        </div>
        <NamedPresets value={preset} onApply={setPreset} />
        <PresetControls
          value={preset}
          onChange={(patch) => setPreset({ ...preset, ...patch })}
          error={error}
          outDirPlaceholder="A “dubbed” folder inside the watched one"
        />
        <fieldset>
          <legend>Afterwards</legend>
          <label className="check-label">
            <input
              type="radio"
              name="after"
              checked={extra.after === 'leave'}
              onChange={() => setExtra({ ...extra, after: 'leave' })}
            />
            Leave the original where it is
          </label>
          <label className="check-label">
            <input
              type="radio"
              name="after"
              checked={extra.after === 'move'}
              onChange={() => setExtra({ ...extra, after: 'move' })}
            />
            Move it to done/ once every language is done (failed/ when one failed)
          </label>
          <label className="check-label">
            <input
              type="checkbox"
              checked={extra.recursive}
              onChange={(e) => setExtra({ ...extra, recursive: e.target.checked })}
            />
            Watch subfolders too
          </label>
          <label className="field narrow">
            <span className="field-label">Ask before spending more than (credits per hour)</span>
            <input
              // Text, not a number input: that reads "1.200" by the browser's language (see typed-numbers).
              type="text"
              inputMode="numeric"
              value={extra.creditLimit}
              placeholder="No limit"
              onChange={(e) => setExtra({ ...extra, creditLimit: e.target.value })}
            />
          </label>
          <ErrorText error={errorFor(error, 'preset.creditLimit')} />
        </fieldset>
        <ErrorText
          error={errorElsewhere(error, ['path', 'preset.to', 'preset.outDir', 'preset.creditLimit'])}
        />
        <div className="form-buttons">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={saving}>
            {folder ? 'Save' : 'Start watching'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
