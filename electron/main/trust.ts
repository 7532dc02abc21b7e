/** Which page may talk to the main process: the app's own, in the main frame of one of its windows. */

export const APP_SCHEME = 'dubdesk';
export const APP_HOST = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
/** The renderer, always from the packaged `dist/renderer` through the app protocol. */
export const RENDERER_URL = `${APP_ORIGIN}/index.html`;

export function isAppUrl(url: string | undefined | null): boolean {
  if (!url) return false;
  try {
    const u = new URL(url);
    return u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST && !u.username && !u.password && !u.port;
  } catch {
    return false;
  }
}

interface FrameLike {
  readonly url: string;
  readonly parent: unknown;
}
interface ContentsLike {
  readonly mainFrame: unknown;
}
export interface SenderLike {
  readonly sender: ContentsLike;
  readonly senderFrame: FrameLike | null;
}

/**
 * An IPC message is answered only when it comes from a window of ours, from its main frame (never an
 * iframe), showing the app's own page (never a page it was navigated or redirected to).
 */
export function isTrustedSender(event: SenderLike, ours: () => readonly ContentsLike[]): boolean {
  const frame = event.senderFrame;
  if (!frame || frame.parent !== null) return false;
  if (!ours().includes(event.sender)) return false;
  if (frame !== event.sender.mainFrame) return false;
  return isAppUrl(frame.url);
}
