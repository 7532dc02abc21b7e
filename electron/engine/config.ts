import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';

/** The desktop app's data folder (Electron's userData for "Dubdesk"), shared with the CLI by default. */
export function defaultHome(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Dubdesk');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Dubdesk');
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'Dubdesk');
}

const StoredSettings = z.object({
  baseUrl: z.string().url().optional(),
  legacyUrl: z.string().url().optional(),
  apiKey: z.string().min(1).optional(),
});
export type StoredSettings = z.infer<typeof StoredSettings>;

const settingsFile = (home: string) => join(home, 'service.json');

export function readStoredSettings(home: string): StoredSettings {
  let text: string;
  try {
    text = readFileSync(settingsFile(home), 'utf8');
  } catch {
    return {};
  }
  try {
    const parsed = StoredSettings.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
  } catch {
    /* fall through */
  }
  throw new Error(`${settingsFile(home)} is damaged; delete it and run \`dubdesk login\` again.`);
}

/** Saved with owner-only permissions: it holds the API key (the desktop app keeps its own in the OS keychain). */
export function writeStoredSettings(home: string, settings: StoredSettings): void {
  mkdirSync(home, { recursive: true });
  writeFileSync(settingsFile(home), `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
  chmodSync(settingsFile(home), 0o600);
}

export interface ConfigFlags {
  home?: string;
  baseUrl?: string;
  legacyUrl?: string;
}

export interface ResolvedConfig {
  home: string;
  baseUrl: string | null;
  legacyUrl: string | null;
  apiKey: string | null;
}

/** Flag over environment over stored settings. */
export function resolveConfig(flags: ConfigFlags, env: NodeJS.ProcessEnv = process.env): ResolvedConfig {
  const home = flags.home ?? env.DUBDESK_HOME ?? defaultHome(env);
  const stored = readStoredSettings(home);
  const pick = (...values: (string | undefined)[]) => values.find((v) => v !== undefined && v !== '') ?? null;
  return {
    home,
    baseUrl: pick(flags.baseUrl, env.DUBDESK_BASE_URL, stored.baseUrl),
    legacyUrl: pick(flags.legacyUrl, env.DUBDESK_LEGACY_URL, stored.legacyUrl),
    apiKey: pick(env.DUBDESK_API_KEY, stored.apiKey),
  };
}
