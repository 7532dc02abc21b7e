import { get } from 'node:http';
import { PRESENCE_PATH } from './routes/presence';

export interface OwnerWatch {
  /** Stops watching; `onGone` will not run after this. */
  close(): void;
}

/**
 * Opens the presence connection of the sandbox at `baseUrl` (run by another process). Resolves once the
 * sandbox answered, with a watch whose `onGone` runs once when that connection ends: the sandbox stopped,
 * or its process died. Resolves null when it cannot be reached (it is stopping, or gone already), and a
 * watch that never fires when it answers but knows no presence (a sandbox of an older version).
 */
export function watchOwner(baseUrl: string, apiKey: string, onGone: () => void): Promise<OwnerWatch | null> {
  return new Promise((resolve) => {
    let watching = false;
    let closed = false;
    const req = get(new URL(PRESENCE_PATH, baseUrl), { agent: false, headers: { apikey: apiKey } });
    const gone = () => {
      if (!watching || closed) return;
      closed = true;
      onGone();
    };
    const close = () => {
      closed = true;
      req.destroy();
    };
    req.on('error', () => {
      if (watching) gone();
      else resolve(null);
    });
    req.on('response', (res) => {
      if (res.statusCode === 404) {
        res.resume();
        resolve({ close });
        return;
      }
      if (res.statusCode !== 200) {
        res.resume();
        req.destroy();
        resolve(null);
        return;
      }
      watching = true;
      // From now on the watch must not keep a command alive that has finished its work.
      res.socket.unref();
      res.on('data', () => undefined);
      res.on('error', gone);
      res.on('close', gone);
      resolve({ close });
    });
  });
}
