import { useEffect, useRef, useState } from 'react';
import type { Account } from '../../../shared/contract/account';
import type { ContractError } from '../../../shared/contract/errors';
import { keySafeAddress, originOf } from '../../../shared/contract/service-address';
import type { Settings } from '../../../shared/contract/settings';
import { formatCredits } from '../format';
import { useApp, useBridge } from '../store';
import { asError } from '../store/errors';
import { ErrorText, errorFor } from './ErrorText';

/** What the service part of the Settings form holds. */
export interface ServiceForm {
  mode: Settings['service']['mode'];
  apiKey: string;
  baseUrl: string;
  legacyUrl: string;
  /** The user agrees to keep the key in a file only they can read (where the system has no key store). */
  allowFileKeyStore: boolean;
}

/**
 * The service addresses as the form shows them. In sandbox mode the engine reports the built-in sandbox's
 * own loopback address (a new port each start): not something to show as "the service address", nor to keep
 * when the user switches to the real service.
 */
export function addressesOf(s: Settings): { baseUrl: string; legacyUrl: string } {
  if (s.service.mode === 'sandbox') return { baseUrl: '', legacyUrl: '' };
  return { baseUrl: s.service.baseUrl ?? '', legacyUrl: s.service.legacyUrl ?? '' };
}

const sameOrigin = (a: string, b: string) => (originOf(a.trim()) ?? a.trim()) === (originOf(b) ?? b);

/**
 * The key is bound to the addresses it was entered for: an address that differs from the saved one (by
 * origin) needs the key typed again before it can be saved, unless it is one the stored key was entered
 * for (going back to it from the sandbox, or from another address, in one save).
 */
export function needsKeyAgain(f: ServiceForm, s: Settings): boolean {
  if (f.mode !== 'service' || f.apiKey.trim()) return false;
  const saved = addressesOf(s);
  if (!f.baseUrl.trim()) return false;
  const entered = s.service.keyOrigins ?? [];
  const addresses = [f.baseUrl, f.legacyUrl].map((a) => a.trim()).filter(Boolean);
  if (entered.length && addresses.every((a) => entered.includes(originOf(a) ?? a))) return false;
  return !sameOrigin(f.baseUrl, saved.baseUrl) || !sameOrigin(f.legacyUrl, saved.legacyUrl);
}

const problem = (message: string, remedy?: string): ContractError => ({
  code: 'bad-request',
  message,
  ...(remedy ? { remedy } : {}),
});

/** Why the address shown cannot be tested, in words; null when it can. */
function addressProblem(address: string): ContractError | null {
  if (!address) return problem('Enter the service address to test the key against.');
  if (!originOf(address)) return problem(`"${address}" is not an address.`, 'It starts with https://');
  if (!keySafeAddress(address))
    return problem(
      `${address} is plain http on another machine: the key would travel in the clear.`,
      'Use its https:// address.',
    );
  return null;
}

/** Tests the key against the address shown, and nothing else. */
function KeyTest({ form, settings }: { form: ServiceForm; settings: Settings }) {
  const bridge = useBridge();
  const [result, setResult] = useState<Account | ContractError | null>(null);
  const [testing, setTesting] = useState(false);
  async function test() {
    const address = form.baseUrl.trim();
    const key = form.apiKey.trim();
    const bad = addressProblem(address);
    if (bad) return setResult(bad);
    const saved = addressesOf(settings).baseUrl;
    const savedKeyHere =
      settings.service.mode === 'service' && settings.service.apiKeySet && sameOrigin(address, saved);
    if (!key && !savedKeyHere) return setResult(problem('Paste the API key to test it.'));
    setTesting(true);
    setResult(null);
    try {
      setResult(key ? await bridge.testKey({ apiKey: key, baseUrl: address }) : await bridge.account());
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
      <div role="status" aria-label="Key test">
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

function keyHintOf(s: Settings['service']): string {
  if (s.keyEnteredFor)
    return `The saved key was entered for ${s.keyEnteredFor}: enter it again for this address.`;
  if (!s.apiKeySet) return 'Paste the API key from your account settings (API Keys section).';
  const hint = s.apiKeyHint ?? '…';
  if (s.keyStore === 'env')
    return `A key ending in ${hint} comes from the environment (DUBDESK_API_KEY): it is used while set, whatever is saved here.`;
  const where = s.keyStore === 'os' ? ' (kept in the system’s credential store)' : '';
  return `A key ending in ${hint} is set${where}. Type a new one to replace it.`;
}

/** The Service part of Settings: the built-in sandbox, or the service with its key and addresses. */
export function ServiceSettings(props: {
  form: ServiceForm;
  settings: Settings;
  error: ContractError | null;
  set: (patch: Partial<ServiceForm>) => void;
}) {
  const { form, settings, error, set } = props;
  const keyEntryRequested = useApp((s) => s.keyEntryRequested);
  const keyEntryShown = useApp((s) => s.keyEntryShown);
  const keyField = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!keyEntryRequested) return;
    if (form.mode !== 'service') return set({ mode: 'service' });
    keyEntryShown();
    // After this commit's other effects: a dialog closing (the first run's) gives focus back on close.
    requestAnimationFrame(() => keyField.current?.focus());
  }, [keyEntryRequested, form.mode, set, keyEntryShown]);

  const storage = settings.service.keyStorage;
  const needsConsent = Boolean(storage?.needsConsent && form.apiKey.trim());
  return (
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
          The built-in sandbox (try it out: sandbox credits only; no real money)
        </label>
      </div>
      {form.mode === 'sandbox' ? (
        <p className="hint">
          The sandbox runs inside Dubdesk on this machine: no account and no key. It does not translate; its
          "dubs" are your own video with subtitles that say what they are.
        </p>
      ) : (
        <>
          <label className="field">
            <span className="field-label">API key</span>
            <input
              ref={keyField}
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
            {keyHintOf(settings.service)}
          </p>
          {needsKeyAgain(form, settings) && (
            <p className="hint warn">A new address needs the API key again: paste it to save the address.</p>
          )}
          {needsConsent && (
            <label className="check-label consent">
              <input
                type="checkbox"
                checked={form.allowFileKeyStore}
                onChange={(e) => set({ allowFileKeyStore: e.target.checked })}
              />
              <span>Keep the key in service.json, in Dubdesk’s data folder, a file only you can read</span>
            </label>
          )}
          {needsConsent && !form.allowFileKeyStore && (
            <p className="hint warn" id="key-file-why">
              This system has no credential store{storage?.osUnavailable ? `: ${storage.osUnavailable}` : ''}.
              The key is saved only in service.json, and only if you agree above.
            </p>
          )}
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
          <KeyTest form={form} settings={settings} />
        </>
      )}
    </fieldset>
  );
}
