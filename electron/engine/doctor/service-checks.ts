import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DubdeskApi } from '../../../shared/contract/methods';
import { V2Client } from '../api/v2';
import { systemKeyStore } from '../keys/os-key-store';
import type { SandboxStarter } from '../app/dubbing-service';
import { fail, messageOf, note, pass, type Check } from './check';
import { readStoredService, serviceFile } from '../keys/service-file';

/** The other way out on every system: the key in an owner-only file, chosen in Settings, at login, or by variable. */
const FILE_WAY =
  'or keep the key in a file only you can read (agree in Settings or at `dubdesk login`, or set DUBDESK_KEY_STORE=file).';

const STORE_FIX: Partial<Record<NodeJS.Platform, string>> = {
  linux: `Install and unlock a Secret Service (GNOME Keyring or KWallet) in your desktop session; ${FILE_WAY}`,
  darwin: `Unlock your login Keychain (Keychain Access) and try again; ${FILE_WAY}`,
  win32: `Check that the Credential Manager service runs (services.msc) and try again; ${FILE_WAY}`,
};

/** How the key came to be in the file: only Settings asks; `login` keeps it there when nothing else will. */
function howFileWasChosen(home: string): string {
  return readStoredService(home).fileKeyConsent
    ? 'you chose this file in Settings'
    : '`dubdesk login` kept the key in this file';
}

/** What the key store is needed for in this run, from the service settings; null when they could not be read. */
export interface KeyUse {
  /** The built-in sandbox is in use: it needs no key. */
  sandbox: boolean;
  /** The key comes from DUBDESK_API_KEY, not from a store. */
  fromEnvironment: boolean;
}

/**
 * Where the API key is kept: the OS credential store answering, or the file the user chose. A system
 * without a credential store fails only when a key is needed now (the service is chosen) and has nowhere
 * to be kept; with the sandbox in use, or a key already in the owner-only file, it passes with a note.
 */
export async function keyStoreCheck(
  home: string,
  choice: 'system' | 'file',
  use: KeyUse | null = null,
): Promise<Check> {
  const title = 'Key store';
  if (choice === 'file')
    return pass(title, `${serviceFile(home)}, readable by you only (the file store was chosen)`);
  try {
    const store = await systemKeyStore({ home, fileFallback: 'allowed' });
    if (store.kind === 'os') return pass(title, 'the system credential store answers');
    // One plain sentence; the system's own words (D-Bus, X11 autolaunch) are in the log.
    const missing = store.osUnavailable ?? 'no system credential store answered';
    const fix = STORE_FIX[process.platform] ?? `Set up a credential store; ${FILE_WAY}`;
    if (store.get())
      return note(
        pass(title, `the key is kept in ${serviceFile(home)}, readable by you only`),
        `${missing}, so ${howFileWasChosen(home)}.`,
      );
    if (use?.fromEnvironment)
      return note(pass(title, 'not used: the key comes from DUBDESK_API_KEY'), `${missing}. ${fix}`);
    if (use?.sandbox)
      return note(
        pass(title, 'not needed yet (the built-in sandbox needs no key)'),
        `${missing}. Before you save a key for the dubbing service: ${fix}`,
      );
    return fail(title, missing, fix);
  } catch (e) {
    return fail(title, `the key store cannot be opened (${messageOf(e)})`, 'Check the data folder above.');
  }
}

const codeOf = (e: unknown) => (e as { code?: string }).code;
const remedyOf = (e: unknown) => (e as { remedy?: string }).remedy;

/** The configured service answering `/me` with the stored key; or, with none, the built-in sandbox doing so. */
export async function serviceCheck(api: DubdeskApi): Promise<{ check: Check; sandboxChosen: boolean }> {
  const title = 'Service';
  const settings = await api.getSettings();
  const sandboxChosen = settings.service.mode === 'sandbox';
  const where = sandboxChosen ? 'the built-in sandbox' : (settings.service.baseUrl ?? 'the service');
  try {
    const me = await api.account();
    const who = `${me.name || me.email}, ${me.balance} credits`;
    return {
      check: pass(
        title,
        sandboxChosen ? `the built-in sandbox is chosen (${who})` : `${where} accepts the key (${who})`,
      ),
      sandboxChosen,
    };
  } catch (e) {
    const code = codeOf(e);
    const check =
      code === 'auth'
        ? fail(
            title,
            `${where} rejected the API key (${messageOf(e)})`,
            'Enter the key again in Settings, or with `dubdesk login`.',
          )
        : code === 'offline'
          ? fail(
              title,
              `${where} cannot be reached (${messageOf(e)})`,
              'Check the address in Settings and the network connection.',
            )
          : fail(
              title,
              settings.service.baseUrl || sandboxChosen ? `${where}: ${messageOf(e)}` : messageOf(e),
              remedyOf(e) ?? 'Check the service settings.',
            );
    return { check, sandboxChosen };
  }
}

/** The built-in sandbox starts and answers `/me` (in a throw-away folder, so the real one is left alone). */
export async function sandboxCheck(startSandbox: SandboxStarter | null): Promise<Check> {
  const title = 'Built-in sandbox';
  if (!startSandbox) return pass(title, 'not part of this run');
  const dir = await mkdtemp(join(tmpdir(), 'dubdesk-doctor-'));
  try {
    const sb = await startSandbox(dir);
    try {
      const me = await new V2Client(sb.baseUrl, sb.apiKey).me();
      return pass(title, `starts and answers on ${sb.baseUrl} (${me.name})`);
    } finally {
      await sb.stop();
    }
  } catch (e) {
    return fail(
      title,
      `it did not start (${messageOf(e)})`,
      'Reinstall Dubdesk; if it persists, report it with these lines.',
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
