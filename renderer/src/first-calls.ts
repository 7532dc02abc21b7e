/**
 * Evaluated first of the page's modules (main.tsx imports it before anything else; the app's own chunk,
 * boot.tsx, is still on its way). In a browser, the requests every start makes leave now, while React and
 * the contract's zod schemas are still being fetched and evaluated (~100 ms on the project machine), instead
 * of after them. What can change is asked once the event
 * stream's headers are back (the server subscribed it before it sent them), as the ordinary start does
 * (store/connect.ts): a change between an answer and the subscription would reach the page by no event.
 * The bridge and the store make
 * the same calls later and are handed these answers (bridge/early-fetch.ts), checked as any other.
 * Electron's shell has its own bridge (window.dubdesk): nothing to do there.
 */
import { ROUTES } from '../../shared/serve-routes';
import { sendEarly } from './bridge/early-fetch';
import { callInit, eventsInit } from './bridge/web-requests';
import { pageSession } from './bridge/web-session';
import { pageRequest } from './store/queue';

function sendFirstCalls(): void {
  if (window.dubdesk) return;
  // Without a session the page shows how to get one (boot.tsx), and makes no call.
  if (pageSession() !== 'signed-in') return;
  const call = (path: string, body: unknown = null) => ({ url: path, init: callInit(undefined, body) });
  const [stream] = sendEarly([
    { url: ROUTES.events, init: eventsInit(undefined) },
    call(ROUTES.method('languages')),
    call(ROUTES.mediaToken),
  ]);
  // The rest of what connect.ts's refreshAll asks for, the first page of the queue first.
  const snapshots = () =>
    void sendEarly([
      call(ROUTES.method('listSources'), pageRequest('all', '', 0)),
      call(ROUTES.method('totals')),
      call(ROUTES.method('getSettings')),
      call(ROUTES.method('listWatchFolders')),
      call(ROUTES.method('listPresets')),
      call(ROUTES.method('whenDone')),
    ]);
  stream?.then(snapshots, snapshots);
}

try {
  sendFirstCalls();
} catch {
  /* the ordinary start makes these calls itself */
}
