import { useEffect, useState, type FormEvent } from 'react';
import type { Account } from '../../../shared/contract/account';
import type { ContractError } from '../../../shared/contract/errors';
import type { OutputSelection } from '../../../shared/contract/jobs';
import type { Settings, SettingsPatch } from '../../../shared/contract/settings';
import { ErrorText, errorElsewhere, errorFor } from '../components/ErrorText';
import { LanguagePicker } from '../components/LanguagePicker';
import { OutputsPicker } from '../components/OutputsPicker';
import { UpdateCheck } from '../components/UpdateCheck';
import { formatCredits } from '../format';
import { useApp, useBridge } from '../store';
import { asError } from '../store/errors';

interface Form {
  mode: Settings['service']['mode'];
  apiKey: string;
  baseUrl: string;
  legacyUrl: string;
  concurrency: number;
  languages: string[];
  favourites: string[];
  outDir: string;
  outputs: OutputSelection;
  notify: boolean;
  /** The user agrees to keep the key in a file only they can read (where the system has no key store). */
  allowFileKeyStore: boolean;
}

/**
 * The service addresses as the form shows them. In sandbox mode the engine reports the built-in sandbox's
 * own loopback address (a new port each start): not something to show as "the service address", nor to keep
 * when the user switches to the real service.
 */
function addressesOf(s: Settings): { baseUrl: string; legacyUrl: string } {
  if (s.service.mode === 'sandbox') return { baseUrl: '', legacyUrl: '' };
  return { baseUrl: s.service.baseUrl ?? '', legacyUrl: s.service.legacyUrl ?? '' };
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
  };
}

const FIELDS = ['service', 'concurrency', 'defaults', 'favouriteLanguages', 'notifyWhenDone'];

/** A service address with its own error under it. */
function AddressField(props: {
  label: string;
  value: string;
  placeholder: string;
  onChange: (value: string) => void;
  error: ContractError | null;
}) {
  return (
    <>
      <label className="field">
        <span className="field-label">{props.label}</span>
        <input
          type="url"
          value={props.value}
          placeholder={props.placeholder}
          onChange={(e) => props.onChange(e.target.value)}
        />
      </label>
      <ErrorText error={props.error} />
    </>
  );
}

function KeyTest({ apiKey, baseUrl }: { apiKey: string; baseUrl: string }) {
  const bridge = useBridge();
  const [result, setResult] = useState<Account | ContractError | null>(null);
  const [testing, setTesting] = useState(false);
  async function test() {
    setTesting(true);
    setResult(null);
    try {
      const key = apiKey.trim();
      let url: string | undefined;
      try {
        url = baseUrl.trim() ? new URL(baseUrl.trim()).toString() : undefined;
      } catch {
        url = undefined;
      }
      setResult(
        key
          ? await bridge.testKey({ apiKey: key, ...(url ? { baseUrl: url } : {}) })
          : await bridge.account(),
      );
    } catch (e) {
      setResult(asError(e));
    } finally {
      setTesting(false);
    }
  }
  return (
    <div className="key-test">
      <button type="button" onClick={() => void test()} disabled={testing}>
        {testing ? 'Testing…' : 'Test key'}
      </button>
      <div aria-live="polite">
        {result && 'balance' in result && (
          <p className="ok-text">
            <span aria-hidden="true">✓ </span>
            {result.name || result.username} · balance {formatCredits(result.balance)}
            {result.mode === 'sandbox' && ' (sandbox)'}
          </p>
        )}
        {result && 'code' in result && <ErrorText error={result} />}
      </div>
    </div>
  );
}

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
  const storage = settings.service.keyStorage;
  const needsConsent = Boolean(storage?.needsConsent && form.apiKey.trim());
  const blocked = needsConsent && !form.allowFileKeyStore;

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

  const keyHint = settings.service.apiKeySet
    ? `A key ending in ${settings.service.apiKeyHint ?? '…'} is set${
        settings.service.keyStore === 'os'
          ? ' (kept in the system’s credential store)'
          : settings.service.keyStore === 'env'
            ? ' (from the environment)'
            : ''
      }. Type a new one to replace it.`
    : 'No key yet: the built-in sandbox stands in for the service.';

  return (
    <section className="screen settings-screen" aria-labelledby="settings-title">
      <h1 id="settings-title">Settings</h1>
      <form onSubmit={(e) => void onSubmit(e)} className="settings-form">
        <fieldset>
          <legend>Service</legend>
          <div className="check-row">
            <label className="check-label">
              <input
                type="radio"
                name="mode"
                checked={form.mode === 'service'}
                onChange={() => set({ mode: 'service' })}
              />
              The dubbing service (your account)
            </label>
            <label className="check-label">
              <input
                type="radio"
                name="mode"
                checked={form.mode === 'sandbox'}
                onChange={() => set({ mode: 'sandbox' })}
              />
              The built-in sandbox (try it out, nothing is charged)
            </label>
          </div>
          {form.mode === 'sandbox' ? (
            <p className="hint">
              The sandbox runs inside Dubdesk on this machine: no account and no key. It does not translate;
              its "dubs" are your own video with subtitles that say what they are.
            </p>
          ) : (
            <>
              <label className="field">
                <span className="field-label">API key</span>
                <input
                  id="api-key"
                  type="password"
                  autoComplete="off"
                  spellCheck={false}
                  value={form.apiKey}
                  placeholder={
                    settings.service.apiKeySet
                      ? `•••• ${settings.service.apiKeyHint ?? ''}`
                      : 'Paste your API key'
                  }
                  aria-describedby="api-key-hint"
                  onChange={(e) => set({ apiKey: e.target.value })}
                />
              </label>
              <p className="hint" id="api-key-hint">
                {keyHint}
              </p>
              {needsConsent && (
                <label className="check-label consent">
                  <input
                    type="checkbox"
                    checked={form.allowFileKeyStore}
                    onChange={(e) => set({ allowFileKeyStore: e.target.checked })}
                  />
                  <span>
                    Keep the key in a file only you can read
                    {storage?.osUnavailable ? ` (${storage.osUnavailable})` : ''}
                  </span>
                </label>
              )}
              <KeyTest apiKey={form.apiKey} baseUrl={form.baseUrl} />
              <ErrorText error={errorFor(error, 'service.apiKey')} />
              <AddressField
                label="Service address"
                value={form.baseUrl}
                placeholder="https://…"
                onChange={(baseUrl) => set({ baseUrl })}
                error={errorFor(error, 'service.baseUrl')}
              />
              <AddressField
                label="Legacy address"
                value={form.legacyUrl}
                placeholder="https://… (only for the legacy API)"
                onChange={(legacyUrl) => set({ legacyUrl })}
                error={errorFor(error, 'service.legacyUrl')}
              />
            </>
          )}
        </fieldset>

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

        <ErrorText error={errorElsewhere(error, FIELDS) ?? errorFor(error, 'service')} />
        <div className="form-buttons">
          <button type="button" disabled={!dirty} onClick={() => setForm(formOf(settings))}>
            Revert
          </button>
          <button type="submit" className="primary" disabled={!dirty || saving || blocked}>
            {saving ? 'Saving…' : 'Save settings'}
          </button>
        </div>
      </form>
      <UpdateCheck />
    </section>
  );
}
