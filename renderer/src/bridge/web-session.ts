import { CODE_FRAGMENT_KEY, ROUTES } from '../../../shared/serve-routes';

/**
 * Where this page stands with `dubdesk serve`:
 * - `signed-in`: this browser has a session (its cookie, which no script can read): the app runs;
 * - `used-link`: the address brought a code that was used already or is too old, and this browser has
 *   no session: the page says how to get a new address;
 * - `no-link`: opened without a code, and no session here;
 * - `ended`: the session went away while the page was open (`serve` stopped or restarted).
 */
export type PageSession = 'signed-in' | 'used-link' | 'no-link' | 'ended';

/**
 * One loopback request, made synchronously on purpose: it runs once, before the page's first calls
 * (first-calls.ts), which go out only with a session. Its status when it answered, 0 when it did not.
 */
function request(method: 'GET' | 'POST', body?: unknown): { status: number; json: unknown } {
  try {
    const xhr = new XMLHttpRequest();
    xhr.open(method, ROUTES.session, false);
    if (body !== undefined) xhr.setRequestHeader('content-type', 'application/json');
    xhr.send(body === undefined ? null : JSON.stringify(body));
    return { status: xhr.status, json: JSON.parse(xhr.responseText) as unknown };
  } catch {
    return { status: 0, json: null };
  }
}

const signedIn = (json: unknown) =>
  (json as { ok?: boolean; value?: { signedIn?: unknown } } | null)?.value?.signedIn === true;

let state: PageSession | null = null;
const listeners = new Set<(s: PageSession) => void>();

/**
 * The page's session, settled once: the address's one-time code (`#code=…`, a fragment, never sent to a
 * server nor put in a Referer) is taken out of the address bar and traded at POST /session, whose answer
 * sets this browser's session cookie; without a code, or with a used one, GET /session says whether this
 * browser has a session already (another tab traded a code, or this is a reload). A code found later in
 * the history or in `ps` has been used: it is worth nothing.
 */
export function pageSession(): PageSession {
  if (state) return state;
  const hash = new URLSearchParams(window.location.hash.replace(/^#/, ''));
  const code = hash.get(CODE_FRAGMENT_KEY);
  if (code) {
    hash.delete(CODE_FRAGMENT_KEY);
    const rest = hash.toString();
    const clean = `${window.location.pathname}${window.location.search}${rest ? `#${rest}` : ''}`;
    window.history.replaceState(window.history.state, '', clean);
    if (request('POST', { code }).status === 200) return (state = 'signed-in');
  }
  if (signedIn(request('GET').json)) return (state = 'signed-in');
  return (state = code ? 'used-link' : 'no-link');
}

/** Called when `serve` refuses this browser's session (it stopped or restarted): once, for the page. */
export function sessionEnded(): void {
  if (state === 'ended') return;
  state = 'ended';
  for (const listener of [...listeners]) listener(state);
}

/** Calls `listener` when the session ends while the page is open. */
export function onSessionEnded(listener: (s: PageSession) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
