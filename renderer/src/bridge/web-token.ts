import { CODE_FRAGMENT_KEY, ROUTES } from '../../../shared/serve-routes';

const STORAGE_KEY = 'dubdesk.serve-token';

/**
 * Trades the address's one-time code for the session token (POST /session). Synchronous on purpose: it is
 * one loopback request, made once, before the page's first calls (first-calls.ts), which need the token.
 */
function exchange(code: string): string | null {
  try {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', ROUTES.session, false);
    xhr.setRequestHeader('content-type', 'application/json');
    xhr.send(JSON.stringify({ code }));
    if (xhr.status !== 200) return null;
    const reply = JSON.parse(xhr.responseText) as { ok?: boolean; value?: { token?: unknown } };
    const token = reply.ok ? reply.value?.token : undefined;
    return typeof token === 'string' && token ? token : null;
  } catch {
    return null;
  }
}

/**
 * The session token of `dubdesk serve`. The address brings a one-time code in its fragment (`#code=…`),
 * which a browser never sends to a server nor puts in a Referer; the page trades it for the token, keeps
 * that in sessionStorage (this tab only, gone when the tab closes, kept across a reload), and takes the
 * code out of the address bar. A code found in history or in `ps` has been used: it is worth nothing.
 */
export function tokenFromPage(): string | null {
  const hash = new URLSearchParams(window.location.hash.replace(/^#/, ''));
  const code = hash.get(CODE_FRAGMENT_KEY);
  if (code) {
    hash.delete(CODE_FRAGMENT_KEY);
    const rest = hash.toString();
    const clean = `${window.location.pathname}${window.location.search}${rest ? `#${rest}` : ''}`;
    window.history.replaceState(window.history.state, '', clean);
    const fresh = exchange(code);
    if (fresh) {
      window.sessionStorage.setItem(STORAGE_KEY, fresh);
      return fresh;
    }
  }
  return window.sessionStorage.getItem(STORAGE_KEY);
}
