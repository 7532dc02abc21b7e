import { TOKEN_FRAGMENT_KEY } from '../../../shared/serve-routes';

const STORAGE_KEY = 'dubdesk.serve-token';

/**
 * The session token of `dubdesk serve`. It arrives once in the address's fragment (`#token=…`), which a
 * browser never sends to a server nor puts in a Referer; it moves into sessionStorage (this tab only, gone
 * when the tab closes, kept across a reload) and leaves the address bar, history and bookmarks.
 */
export function tokenFromPage(): string | null {
  const hash = new URLSearchParams(window.location.hash.replace(/^#/, ''));
  const fresh = hash.get(TOKEN_FRAGMENT_KEY);
  if (fresh) {
    window.sessionStorage.setItem(STORAGE_KEY, fresh);
    hash.delete(TOKEN_FRAGMENT_KEY);
    const rest = hash.toString();
    const clean = `${window.location.pathname}${window.location.search}${rest ? `#${rest}` : ''}`;
    window.history.replaceState(window.history.state, '', clean);
    return fresh;
  }
  return window.sessionStorage.getItem(STORAGE_KEY);
}
