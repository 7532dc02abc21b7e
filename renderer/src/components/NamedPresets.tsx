import { useId, useState } from 'react';
import type { ContractError } from '../../../shared/contract/errors';
import { useApp } from '../store';
import { draftOfPreset, presetOptionsOf, type PresetDraft } from '../store/preset';
import { ErrorText } from './ErrorText';

/**
 * Named presets over a form's choices: pick one to fill the form, save the form as a new one, or update the
 * one picked. The same presets as `dubdesk preset` (kept in the queue's database).
 */
export function NamedPresets({
  value,
  onApply,
}: {
  value: PresetDraft;
  onApply: (draft: PresetDraft) => void;
}) {
  const presets = useApp((s) => s.presets);
  const save = useApp((s) => s.savePreset);
  const [picked, setPicked] = useState('');
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const [error, setError] = useState<ContractError | null>(null);
  const id = useId();
  const current = presets.find((p) => p.name === picked) ?? null;

  const saveAs = async (under: string) => {
    const failed = await save(under, presetOptionsOf(value));
    setError(failed);
    if (!failed) {
      setPicked(under);
      setNaming(false);
      setName('');
    }
  };

  return (
    <div className="named-presets">
      <label className="field-inline">
        <span className="field-label">Preset</span>
        <select
          value={picked}
          onChange={(e) => {
            setPicked(e.target.value);
            const p = presets.find((x) => x.name === e.target.value);
            if (p) onApply(draftOfPreset(p.options, value));
          }}
        >
          <option value="">{presets.length ? 'Choose a preset…' : 'No presets yet'}</option>
          {presets.map((p) => (
            <option key={p.name} value={p.name}>
              {p.name}
            </option>
          ))}
        </select>
      </label>
      {current && (
        <button type="button" onClick={() => void saveAs(current.name)}>
          Update “{current.name}”
        </button>
      )}
      {naming ? (
        <form
          className="field-inline"
          onSubmit={(e) => {
            e.preventDefault();
            if (name.trim()) void saveAs(name.trim());
          }}
        >
          <input
            type="text"
            value={name}
            autoFocus
            aria-label="Preset name"
            placeholder="e.g. ES+FR studio"
            aria-describedby={error ? `${id}-error` : undefined}
            onChange={(e) => setName(e.target.value)}
          />
          <button type="submit" disabled={!name.trim()}>
            Save
          </button>
          <button type="button" className="link" onClick={() => setNaming(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <button type="button" className="link" onClick={() => setNaming(true)}>
          Save as preset…
        </button>
      )}
      <ErrorText error={error} id={`${id}-error`} />
    </div>
  );
}
