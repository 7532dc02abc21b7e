/**
 * A browser test that failed says what the page showed at that moment: its screenshot, the dialogs open, the
 * errors the page logged and the requests that failed. A failure seen once on a loaded CI machine is then
 * read from the log, not guessed at.
 */
import type { Viewing } from './browser-app';
import { failureScreenshot } from './browser-app';

let failures = 0;

async function pageState(view: Viewing): Promise<string> {
  const shot = await failureScreenshot(view.page, `failed-${process.pid}-${++failures}`).catch(
    (e: unknown) => `none (${String(e)})`,
  );
  const seen = await view.page
    .evaluate(() => ({
      url: location.pathname + location.hash,
      dialogs: [...document.querySelectorAll('dialog')].map(
        (d) =>
          `${d.getAttribute('aria-labelledby') ? (document.getElementById(d.getAttribute('aria-labelledby') ?? '')?.textContent ?? '') : d.className}${d.open ? ' (open)' : ' (closed)'}`,
      ),
      text: document.body.innerText.slice(0, 600),
    }))
    .catch((e: unknown) => ({ url: '?', dialogs: [], text: `the page could not be read: ${String(e)}` }));
  return [
    `screenshot: ${shot}`,
    `address: ${seen.url}`,
    `dialogs: ${seen.dialogs.join('; ') || 'none'}`,
    `console errors: ${view.troubles.console.join(' | ') || 'none'}`,
    `failed requests: ${view.troubles.requests.join(' | ') || 'none'}`,
    `text: ${seen.text.replace(/\s+/g, ' ')}`,
  ].join('\n');
}

/** The error, its message followed by what the page showed. */
export async function withWhatThePageShowed(error: unknown, view: Viewing): Promise<unknown> {
  if (!(error instanceof Error)) return error;
  error.message += `\n\nWhat the page showed:\n${await pageState(view)}`;
  return error;
}
