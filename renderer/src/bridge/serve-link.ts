/**
 * Whether `dubdesk serve` answers this page: its event stream is open, or it broke and reconnecting was
 * refused (serve was stopped, or the way to it, an `ssh -L` tunnel say, is cut). What the page shows then
 * is what it last heard, up to `lostAt`. Fed by the web bridge's event stream (web-events.ts); the desktop
 * app's shell has no such link, so it never reports one lost.
 */
export interface ServeLink {
  /** When the page last heard from serve, if it does not answer now; null while it does. */
  lostAt: number | null;
}

let link: ServeLink = { lostAt: null };
const listeners = new Set<() => void>();

function set(next: ServeLink): void {
  if (next.lostAt === link.lostAt) return;
  link = next;
  for (const listener of [...listeners]) listener();
}

/** Serve stopped answering; the page's numbers are those of `since` (the first loss is kept). */
export function serveLost(since: number): void {
  if (link.lostAt === null) set({ lostAt: since });
}

/** Serve answers again. */
export function serveBack(): void {
  set({ lostAt: null });
}

/** For useSyncExternalStore. */
export const serveLinkNow = (): ServeLink => link;
export function onServeLink(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
