import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { newToken } from './token';

/** `<home>/serve`: the folder of redirect files, readable by the user alone. */
export const REDIRECT_FOLDER = 'serve';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A page that sends the browser on to `address` at once (a link too, should refresh be off). */
function redirectPage(address: string): string {
  const a = escapeHtml(address);
  return [
    '<!doctype html>',
    '<html><head><meta charset="utf-8">',
    `<meta http-equiv="refresh" content="0;url=${a}">`,
    '<meta name="referrer" content="no-referrer">',
    '<title>Dubdesk</title></head>',
    `<body><p>Opening Dubdesk… If nothing happens, <a href="${a}">open it here</a>.</p></body></html>`,
    '',
  ].join('\n');
}

export interface RedirectFile {
  /** What the opener is given: a path, which says nothing to whoever reads the command line. */
  readonly path: string;
  /** Deletes the file (its code was traded, expired, or serve stops); harmless twice. */
  remove(): Promise<void>;
}

/**
 * Writes a page that redirects to `address` (which carries a one-time code) as a file only the user can
 * read: mode 0600 in a 0700 folder of the data folder. The browser is opened on the file's path, so a
 * command line (`ps`, /proc/<pid>/cmdline, readable by every local user) holds a path, never the code:
 * Jupyter's `use_redirect_file`. The caller removes it once the code is used or expired.
 */
export async function writeRedirectFile(home: string, address: string): Promise<RedirectFile> {
  const dir = join(home, REDIRECT_FOLDER);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  // A folder made earlier, or under another umask, is made private again.
  await chmod(dir, 0o700);
  const path = join(dir, `open-${newToken().slice(0, 16)}.html`);
  await writeFile(path, redirectPage(address), { mode: 0o600, flag: 'wx' });
  return { path, remove: () => rm(path, { force: true }) };
}
