import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The renderer is always loaded from the packaged file; nothing else may call the main process. */
export const RENDERER_URL = pathToFileURL(join(__dirname, '..', 'renderer', 'index.html')).toString();

export function isTrustedSender(url: string | undefined): boolean {
  return url === RENDERER_URL;
}
