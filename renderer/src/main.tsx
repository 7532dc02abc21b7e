// First: the page's first calls (first-calls.ts) leave while the app's code is still on its way.
import './first-calls';
// Every stylesheet, in the cascade's order, is the page's one render-blocking <link>.
import './screens/needs-link.css';
import './styles.css';
import './steering.css';
import './compact.css';

/**
 * The page's entry is this small module and the stylesheet. The app itself (boot.tsx: React, the contract's
 * zod schemas, every screen, about 560 kB) is a chunk of its own, fetched once this has run: the first page
 * of the queue, the totals and the settings are asked for before it arrives, not after it is evaluated.
 */
const root = document.getElementById('root');
if (root) {
  import('./boot').then(
    ({ boot }) => boot(root),
    (e: unknown) => {
      root.textContent = `Dubdesk could not start: ${e instanceof Error ? e.message : String(e)}`;
    },
  );
}
