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
 * The one-time code in the address (`#code=…`, a fragment, never sent to a server nor put in a Referer),
 * taken out of the address bar and traded at POST /session, whose answer sets this browser's session
 * cookie. Null when the address has no code; else whether the trade signed this browser in.
 */
function tradeCodeInAddress(): boolean | null {
  const hash = new URLSearchParams(window.location.hash.replace(/^#/, ''));
  const code = hash.get(CODE_FRAGMENT_KEY);
  if (!code) return null;
  hash.delete(CODE_FRAGMENT_KEY);
  const rest = hash.toString();
  const clean = `${window.location.pathname}${window.location.search}${rest ? `#${rest}` : ''}`;
  window.history.replaceState(window.history.state, '', clean);
  return request('POST', { code }).status === 200;
}

/**
 * The page's session, settled once: the address's code is traded (tradeCodeInAddress); without a code, or
 * with a used one, GET /session says whether this browser has a session already (another tab traded a
 * code, or this is a reload). A code found later in the history or in `ps` has been used: it is worth
 * nothing.
 */
export function pageSession(): PageSession {
  if (state) return state;
  const traded = tradeCodeInAddress();
  if (traded) return (state = 'signed-in');
  if (signedIn(request('GET').json)) return (state = 'signed-in');
  return (state = traded === false ? 'used-link' : 'no-link');
}

/**
 * An address pasted into this tab's bar that differs from it only in its fragment (the printed
 * `http://127.0.0.1:PORT/#code=…` over the help page, which tells the user to do just that) loads no page:
 * the code is traded here. A tab without a session is then loaded again, as the pasted address would have
 * been, and starts signed in; a signed-in tab only has the code taken out of its address bar.
 */
export function tradeCodesPastedLater(): void {
  window.addEventListener('hashchange', () => {
    const traded = tradeCodeInAddress();
    if (traded === null || state === 'signed-in') return;
    // A used code, where another tab signed this browser in meanwhile, loads the app all the same.
    if (traded || signedIn(request('GET').json)) window.location.reload();
    else changeTo('used-link');
  });
}

function changeTo(next: PageSession): void {
  if (state === next) return;
  state = next;
  for (const listener of [...listeners]) listener(next);
}

/** Called when `serve` refuses this browser's session (it stopped or restarted): once, for the page. */
export function sessionEnded(): void {
  changeTo('ended');
}

/** Calls `listener` when the page's session changes while it is open (it ended, or a pasted code was used). */
export function onSessionChanged(listener: (s: PageSession) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
