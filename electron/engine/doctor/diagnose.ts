/**
 * `dubdesk doctor` and the app's Help > Copy Diagnostics: the same checks, each a pass or a failure with its
 * fix. The folder and the database are looked at before anything opens them, so a read-only folder or a
 * damaged queue is reported rather than crashing the check.
 */
import { open, stat } from 'node:fs/promises';
import type { DubdeskApi } from '../../../shared/contract/methods';
import { logFile } from '../log/log';
import type { SandboxStarter } from '../app/dubbing-service';
import { formatChecks, pass, skipped, type Check } from './check';
import { backupCheck, databaseCheck } from './database';
import { homeCheck, runtimeCheck } from './runtime';
import { formatBytes } from '../../../shared/format';
import { keyStoreCheck, sandboxCheck, serviceCheck, type KeyUse } from './service-checks';
import { glibcVersion, systemCheck } from './system';
import { ffmpegCheck } from './media-tools';

export interface DiagnoseOptions {
  home: string;
  versions: { node: string; electron?: string };
  keyStore: 'system' | 'file';
  /** The engine's contract on this home, opened only once the folder and the database check out. */
  api: () => Promise<DubdeskApi>;
  /** How this face starts the built-in sandbox. */
  startSandbox: SandboxStarter | null;
}

async function logCheck(home: string): Promise<Check> {
  const file = logFile(home);
  try {
    const s = await stat(file);
    return pass('Log', `${file} (${formatBytes(s.size)})`);
  } catch {
    return pass('Log', `${file} (none written yet)`);
  }
}

export async function diagnose(o: DiagnoseOptions): Promise<Check[]> {
  const system = systemCheck(process.platform, glibcVersion());
  const checks: Check[] = [runtimeCheck(o.versions), ...(system ? [system] : [])];
  const home = await homeCheck(o.home);
  const db = databaseCheck(o.home);
  const backup = await backupCheck(o.home);
  // The service is looked at first: whether a key is needed decides what a missing key store means.
  const service: Check[] = [];
  let use: KeyUse | null = null;
  if (home.ok && db.ok) {
    try {
      const api = await o.api();
      const { check, sandboxChosen } = await serviceCheck(api);
      const { keyStore } = (await api.getSettings()).service;
      use = { sandbox: sandboxChosen, fromEnvironment: keyStore === 'env' };
      service.push(check);
      // With the sandbox chosen, the line above already went through it.
      if (!sandboxChosen) service.push(await sandboxCheck(o.startSandbox));
    } catch (e) {
      service.push(
        skipped('Service', `the queue did not open (${e instanceof Error ? e.message : String(e)})`),
      );
    }
  } else {
    service.push(skipped('Service', 'the data folder or the database failed its check'));
  }
  checks.push(home, db, backup, await keyStoreCheck(o.home, o.keyStore, use), ...service);
  checks.push(await ffmpegCheck());
  checks.push(await logCheck(o.home));
  return checks;
}

/** How many of the log's last lines "Copy diagnostics" adds. */
export const LOG_LINES = 200;

/** Key-like values (`apikey: …`, `Bearer …`, a `"key"` field) that must never leave in a report. */
const KEYISH =
  /((?:api[-_]?key|authorization|x-api-key|"key")["']?\s*[:=]\s*["']?(?:bearer\s+)?)[^\s"',}]+|(\bbearer\s+)[^\s"',}]+/gi;

export function redact(text: string, secrets: readonly string[]): string {
  let out = text.replace(
    KEYISH,
    (_m, a: string | undefined, b: string | undefined) => `${a ?? b ?? ''}[redacted]`,
  );
  for (const s of secrets) if (s.length >= 4) out = out.split(s).join('[redacted]');
  return out;
}

/** The file's last `n` lines, read from its end (a log may be megabytes). */
async function lastLines(file: string, n: number): Promise<string[]> {
  let fh;
  try {
    fh = await open(file, 'r');
  } catch {
    return [];
  }
  try {
    const { size } = await fh.stat();
    const length = Math.min(size, 512 * 1024);
    const buf = Buffer.alloc(length);
    await fh.read(buf, 0, length, size - length);
    const lines = buf.toString('utf8').split('\n').filter(Boolean);
    return lines.slice(length < size ? Math.max(1, lines.length - n) : -n);
  } finally {
    await fh.close();
  }
}

/** The text "Copy diagnostics" puts on the clipboard: the checks, then the log's last lines, keys redacted. */
export async function diagnosticsReport(
  checks: readonly Check[],
  home: string,
  secrets: readonly string[],
): Promise<string> {
  const lines = await lastLines(logFile(home), LOG_LINES);
  const text = [
    `Dubdesk diagnostics, ${new Date().toISOString()} (${process.platform} ${process.arch})`,
    '',
    formatChecks(checks),
    '',
    `Last ${lines.length} lines of ${logFile(home)}:`,
    ...lines,
  ].join('\n');
  return redact(text, secrets);
}
