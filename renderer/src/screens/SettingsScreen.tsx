import { useEffect, useState, type FormEvent } from 'react';
import type { ContractError } from '../../../shared/contract/errors';
import type { OutputSelection } from '../../../shared/contract/jobs';
import { MAX_HISTORY_DAYS, type Settings, type SettingsPatch } from '../../../shared/contract/settings';
import { ErrorText, errorElsewhere, errorFor } from '../components/ErrorText';
import { addressesOf, needsKeyAgain, ServiceSettings, type ServiceForm } from '../components/ServiceSettings';
import { LanguagePicker } from '../components/LanguagePicker';
import { OutputsPicker } from '../components/OutputsPicker';
import { SteeringSettings } from '../components/SteeringSettings';
import { UpdateCheck } from '../components/UpdateCheck';
import { useApp } from '../store';

interface Form extends ServiceForm {
  concurrency: number;
  languages: string[];
  favourites: string[];
  outDir: string;
  outputs: OutputSelection;
  notify: boolean;
  historyDays: number;
}

function formOf(s: Settings): Form {
  return {
    mode: s.service.mode,
    apiKey: '',
    ...addressesOf(s),
    concurrency: s.concurrency,
    languages: [...s.defaults.languages],
    favourites: [...s.favouriteLanguages],
    outDir: s.defaults.outDir ?? '',
    outputs: s.defaults.outputs,
    notify: s.notifyWhenDone,
    historyDays: s.historyAfterDays,
    allowFileKeyStore: false,
  };
}

function patchOf(f: Form, s: Settings): SettingsPatch {
  const same = (a: readonly string[], b: readonly string[]) => a.join() === b.join();
  const service: NonNullable<SettingsPatch['service']> = {};
  if (f.mode !== s.service.mode) service.mode = f.mode;
  if (f.apiKey.trim()) service.apiKey = f.apiKey.trim();
  if (f.apiKey.trim() && f.allowFileKeyStore) service.allowFileKeyStore = true;
  const shown = addressesOf(s);
  if (f.baseUrl.trim() !== shown.baseUrl) service.baseUrl = f.baseUrl.trim() || null;
  if (f.legacyUrl.trim() !== shown.legacyUrl) service.legacyUrl = f.legacyUrl.trim() || null;
  const defaults: NonNullable<SettingsPatch['defaults']> = {};
  if (!same(f.languages, s.defaults.languages)) defaults.languages = f.languages;
  if (f.outDir.trim() !== (s.defaults.outDir ?? '')) defaults.outDir = f.outDir.trim() || null;
  if (JSON.stringify(f.outputs) !== JSON.stringify(s.defaults.outputs)) defaults.outputs = f.outputs;
  return {
    ...(Object.keys(service).length ? { service } : {}),
    ...(Object.keys(defaults).length ? { defaults } : {}),
    ...(f.concurrency !== s.concurrency ? { concurrency: f.concurrency } : {}),
    ...(!same(f.favourites, s.favouriteLanguages) ? { favouriteLanguages: f.favourites } : {}),
    ...(f.notify !== s.notifyWhenDone ? { notifyWhenDone: f.notify } : {}),
    ...(f.historyDays !== s.historyAfterDays ? { historyAfterDays: f.historyDays } : {}),
  };
}

const FIELDS = [
  'service',
  'concurrency',
  'defaults',
  'favouriteLanguages',
  'notifyWhenDone',
  'historyAfterDays',
];

export function SettingsScreen() {
  const settings = useApp((s) => s.settings);
  const loadError = useApp((s) => s.settingsError);
  const save = useApp((s) => s.saveSettings);
  const notify = useApp((s) => s.notify);
  const [form, setForm] = useState<Form | null>(null);
  const [error, setError] = useState<ContractError | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (settings && form === null) setForm(formOf(settings));
  }, [settings, form]);

  if (!settings || !form)
    return (
      <section className="screen settings-screen" aria-label="Settings">
        {loadError ? <ErrorText error={loadError} /> : <p className="muted">Reading settings…</p>}
      </section>
    );
  const set = (patch: Partial<Form>) => setForm({ ...form, ...patch });
  const patch = patchOf(form, settings);
  const dirty = Object.keys(patch).length > 0;
  const needsConsent = Boolean(settings.service.keyStorage?.needsConsent && form.apiKey.trim());
  const blocked = (needsConsent && !form.allowFileKeyStore) || needsKeyAgain(form, settings);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!settings || !form) return;
    setSaving(true);
    const err = await save(patchOf(form, settings));
    setSaving(false);
    setError(err);
    if (!err) {
      setForm({ ...form, apiKey: '' });
      notify('info', 'Settings saved.');
    }
  }

  return (
    <section className="screen settings-screen" aria-labelledby="settings-title">
      <h1 id="settings-title">Settings</h1>
      <form onSubmit={(e) => void onSubmit(e)} className="settings-form">
        <ServiceSettings form={form} settings={settings} error={error} set={set} />

        <fieldset>
          <legend>Queue</legend>
          <label className="field narrow">
            <span className="field-label">Transfers at once</span>
            <input
              type="number"
              min={1}
              max={16}
              value={form.concurrency}
              onChange={(e) => set({ concurrency: Math.max(1, Math.min(16, Number(e.target.value) || 1)) })}
            />
          </label>
          <ErrorText error={errorFor(error, 'concurrency')} />
          <label className="field narrow">
            <span className="field-label">Move finished jobs to History after (days)</span>
            <input
              type="number"
              min={1}
              max={MAX_HISTORY_DAYS}
              value={form.historyDays}
              onChange={(e) =>
                set({
                  historyDays: Math.max(
                    1,
                    Math.min(MAX_HISTORY_DAYS, Math.round(Number(e.target.value)) || 1),
                  ),
                })
              }
            />
          </label>
          <ErrorText error={errorFor(error, 'historyAfterDays')} />
          <label className="check-label">
            <input
              type="checkbox"
              checked={form.notify}
              onChange={(e) => set({ notify: e.target.checked })}
            />
            Notify me when a batch is done (one notification per batch)
          </label>
        </fieldset>

        <fieldset>
          <legend>New batches</legend>
          <div className="field">
            <span className="field-label">Default languages</span>
            <LanguagePicker
              label="Default languages"
              value={form.languages}
              onChange={(languages) => set({ languages })}
              legacyOnly={false}
            />
          </div>
          <div className="field">
            <span className="field-label">Favourite languages (listed first)</span>
            <LanguagePicker
              label="Favourite languages"
              value={form.favourites}
              onChange={(favourites) => set({ favourites })}
              legacyOnly={false}
            />
          </div>
          <label className="field">
            <span className="field-label">Default output folder</span>
            <input
              type="text"
              value={form.outDir}
              placeholder="Beside each source"
              onChange={(e) => set({ outDir: e.target.value })}
            />
          </label>
          <ErrorText error={errorFor(error, 'defaults')} />
          <OutputsPicker value={form.outputs} onChange={(outputs) => set({ outputs })} />
        </fieldset>

        <ErrorText error={errorElsewhere(error, FIELDS) ?? (error?.field === 'service' ? error : null)} />
        <div className="form-buttons">
          <button type="button" disabled={!dirty} onClick={() => setForm(formOf(settings))}>
            Revert
          </button>
          <button type="submit" className="primary" disabled={!dirty || saving || blocked}>
            {saving ? 'Saving…' : 'Save settings'}
          </button>
        </div>
      </form>
      <SteeringSettings />
      <UpdateCheck />
    </section>
  );
}
