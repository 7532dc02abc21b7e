/**
 * The desktop shell's own log, `logs/desktop.log` in the data folder, beside the engine's `dubdesk.log`:
 * what the engine's process printed (a packaged app has no console to show it), and why the app could not
 * start. Writing it never throws: a log that cannot be written must not hide the failure being logged.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const shellLogFile = (home: string): string => join(home, 'logs', 'desktop.log');

export function appendShellLog(file: string, lines: readonly string[]): void {
  if (!lines.length) return;
  const stamp = new Date().toISOString();
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    appendFileSync(file, lines.map((l) => `${stamp} ${l}\n`).join(''), { mode: 0o600 });
  } catch {
    /* the dialog still says what happened */
  }
}

/** A thrown value as the lines a log keeps: its stack when it has one. */
export function linesOf(error: unknown): string[] {
  const text = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  return text.split('\n').slice(0, 30);
}
