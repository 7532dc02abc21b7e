import { isAbsolute, resolve } from 'node:path';
import { DubdeskError } from '../../../shared/contract/errors';

/**
 * A path as the user typed it, made absolute. The CLI has a working folder to start a relative path from;
 * the desktop window and the web page do not (the engine's own working folder is wherever the app or
 * `serve` happened to start, `/` for an app opened from the dock), so there a relative path is refused
 * rather than guessed.
 */
export function absolutePath(raw: string, cwd: string | null, field: string, what = 'folder'): string {
  if (isAbsolute(raw)) return resolve(raw);
  if (cwd !== null) return resolve(cwd, raw);
  throw new DubdeskError('bad-request', `${raw} is not a full path`, {
    remedy: `Give the full path of the ${what}, from the top (/home/you/Videos, C:\\Users\\you\\Videos).`,
    field,
  });
}
