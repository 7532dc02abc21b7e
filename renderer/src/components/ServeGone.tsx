import { useSyncExternalStore } from 'react';
import { onServeLink, serveLinkNow } from '../bridge/serve-link';

/** When the page last heard from serve: its time, and its day too when that was not today. */
function heardAt(lostAt: number): string {
  const at = new Date(lostAt);
  const time = at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return at.toDateString() === new Date().toDateString() ? time : `${at.toLocaleDateString()} ${time}`;
}

/**
 * The browser's banner for a `dubdesk serve` that stopped answering (bridge/serve-link.ts): the app stays on
 * screen with what it last heard, so it says that nothing here is live, since when, and how to start serve
 * again; a restarted serve listens on a new port this tab cannot find by itself. Gone by itself once serve
 * answers here again.
 */
export function ServeGone() {
  const { lostAt } = useSyncExternalStore(onServeLink, serveLinkNow);
  if (lostAt === null) return null;
  return (
    <div className="banner banner-error" role="alert">
      <span aria-hidden="true">⚠</span>
      <p>
        <strong>
          Dubdesk (<code>dubdesk serve</code>) is not answering, so nothing here is live
        </strong>
        : the numbers shown are from {heardAt(lostAt)}. To start it again, run <code>npx dubdesk serve</code>{' '}
        in the Dubdesk folder; a restarted serve prints a new address to open. This tab carries on by itself
        if serve answers on this address again.
      </p>
    </div>
  );
}
