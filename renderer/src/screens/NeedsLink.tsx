import type { PageSession } from '../bridge/web-session';
import './needs-link.css';

type Why = Exclude<PageSession, 'signed-in'>;

const TITLE: Record<Why, string> = {
  'used-link': 'This address was used already',
  'no-link': 'Open Dubdesk with the address it prints',
  ended: 'Dubdesk stopped, or was started again',
};

const WHY: Record<Why, string> = {
  'used-link':
    'Each address that `dubdesk serve` prints signs in one browser, once, for a few minutes. This browser has no session of this Dubdesk yet, so it needs a new address.',
  'no-link': 'This page needs the address `dubdesk serve` prints: its one-time code signs this browser in.',
  ended: 'This tab’s session ended with it. Nothing in the queue is lost.',
};

/** Inline `code` spans in a sentence written with backticks. */
function withCode(text: string) {
  return text.split('`').map((part, i) => (i % 2 ? <code key={i}>{part}</code> : part));
}

/**
 * What a browser without a session of `dubdesk serve` shows instead of the app (web-session.ts): why, and
 * how to get a new address. Once signed in, every tab and reload of that browser works until it, or
 * `serve`, closes.
 */
export function NeedsLink({ why }: { why: Why }) {
  return (
    <div className="needs-link-page">
      <main className="needs-link" aria-labelledby="needs-link-title">
        <h1 id="needs-link-title">{TITLE[why]}</h1>
        <p>{withCode(WHY[why])}</p>
        <h2>To open Dubdesk in this browser</h2>
        <ol>
          <li>
            In a terminal, in the Dubdesk folder, run <code>npx dubdesk serve --link</code> (or press Enter in
            the terminal where <code>dubdesk serve</code> runs).
          </li>
          <li>Open the address it prints here. Every tab of this browser then works.</li>
        </ol>
        <p className="needs-link-more">
          Not running any more? <code>npx dubdesk serve</code> starts it again and opens the browser.
        </p>
      </main>
    </div>
  );
}
