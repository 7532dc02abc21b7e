import { useEffect, useState, type FormEvent } from 'react';
import type { ContractError } from '../../../shared/contract/errors';
import type { Settings, SettingsPatch } from '../../../shared/contract/settings';
import { useApp } from '../store';
import { typedDecimal, typedWhole } from '../typed-numbers';
import { ErrorText } from './ErrorText';

const MIB = 1024 * 1024;

interface Form {
  upload: string;
  download: string;
  windowOn: boolean;
  from: string;
  to: string;
  budget: string;
}

const mib = (bytes: number | null) => (bytes === null ? '' : String(Math.round((bytes / MIB) * 100) / 100));

function formOf(s: Settings): Form {
  return {
    upload: mib(s.maxUploadRate),
    download: mib(s.maxDownloadRate),
    windowOn: s.sendWindow !== null,
    from: s.sendWindow?.from ?? '22:00',
    to: s.sendWindow?.to ?? '07:00',
    budget: s.monthlyBudget === null ? '' : String(s.monthlyBudget),
  };
}

/** A field's number, or what is wrong with it (the field named, and what it takes). */
type Read = { value: number | null } | { error: ContractError };

function read(text: string, parse: (t: string) => number | null, field: string, takes: string): Read {
  const value = parse(text);
  if (value === null || Number.isFinite(value)) return { value };
  return { error: { code: 'bad-request', message: `${field}: '${text.trim()}' is not ${takes}`, field } };
}

/** The settings the form holds, or the first field that holds no number of its kind. */
function patchOf(f: Form): { patch: SettingsPatch } | { error: ContractError } {
  const rate = 'a number of MiB per second, such as 5 or 2,5';
  const upload = read(f.upload, typedDecimal, 'Upload cap', rate);
  const download = read(f.download, typedDecimal, 'Download cap', rate);
  const budget = read(f.budget, typedWhole, 'Monthly budget', 'a whole number of credits, such as 5000');
  if ('error' in upload) return upload;
  if ('error' in download) return download;
  if ('error' in budget) return budget;
  const bytes = (mib: number | null) => (mib === null ? null : Math.round(mib * MIB));
  return {
    patch: {
      maxUploadRate: bytes(upload.value),
      maxDownloadRate: bytes(download.value),
      sendWindow: f.windowOn ? { from: f.from, to: f.to } : null,
      monthlyBudget: budget.value,
    },
  };
}

/** A cap in MiB per second, empty for none (the engine refuses less than MIN_RATE_BYTES). */
function RateField(props: { label: string; value: string; onChange: (value: string) => void }) {
  return (
    <label className="field">
      <span className="field-label">{props.label}</span>
      <input
        // Text, not a number input: that reads what is typed by the browser's language (see typed-numbers).
        type="text"
        inputMode="decimal"
        value={props.value}
        placeholder="No cap"
        onChange={(e) => props.onChange(e.target.value)}
      />
    </label>
  );
}

/**
 * The line and the money: caps on uploads and downloads (all of them together), the hours new work may
 * be sent in, and a monthly budget that adding and watched folders keep to. Saved on their own.
 */
export function SteeringSettings() {
  const settings = useApp((s) => s.settings);
  const save = useApp((s) => s.saveSettings);
  const [form, setForm] = useState<Form | null>(settings ? formOf(settings) : null);
  const [error, setError] = useState<ContractError | null>(null);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (settings && !form) setForm(formOf(settings));
  }, [settings, form]);
  if (!settings || !form) return null;
  const set = (patch: Partial<Form>) => {
    setForm({ ...form, ...patch });
    setSaved(false);
  };
  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const made = patchOf(form);
    if ('error' in made) {
      setError(made.error);
      setSaved(false);
      return;
    }
    const failed = await save(made.patch);
    setError(failed);
    setSaved(failed === null);
  };
  return (
    <form className="settings-form steering-settings" onSubmit={(e) => void onSubmit(e)}>
      <fieldset>
        <legend>Line and schedule</legend>
        <div className="field-row">
          <RateField
            label="Upload cap (MiB/s, all uploads)"
            value={form.upload}
            onChange={(upload) => set({ upload })}
          />
          <RateField
            label="Download cap (MiB/s)"
            value={form.download}
            onChange={(download) => set({ download })}
          />
        </div>
        <label className="check">
          <input
            type="checkbox"
            checked={form.windowOn}
            onChange={(e) => set({ windowOn: e.target.checked })}
          />
          Send new work only between
          <input
            type="time"
            aria-label="From"
            value={form.from}
            disabled={!form.windowOn}
            onChange={(e) => set({ from: e.target.value })}
          />
          and
          <input
            type="time"
            aria-label="To"
            value={form.to}
            disabled={!form.windowOn}
            onChange={(e) => set({ to: e.target.value })}
          />
        </label>
        <p className="hint">
          Local time. Outside it, jobs wait in the queue; dubs already sent go on and are downloaded.
        </p>
      </fieldset>
      <fieldset>
        <legend>Spending</legend>
        <label className="field">
          <span className="field-label">Monthly budget (credits)</span>
          <input
            type="text"
            inputMode="numeric"
            value={form.budget}
            placeholder="No budget"
            onChange={(e) => set({ budget: e.target.value })}
          />
        </label>
        <p className="hint">Adding past it asks first; watched folders hold new files for approval.</p>
      </fieldset>
      <ErrorText error={error} />
      <div className="form-buttons">
        {saved && (
          <span className="hint" role="status">
            Saved.
          </span>
        )}
        <button type="submit" className="primary">
          Save line and spending
        </button>
      </div>
    </form>
  );
}
