/**
 * The references the `ui` figures are divided by: what the same Chromium on the same machine takes to show
 * the same screen when nothing of ours runs. Both are static pages made from the app's own DOM, served by
 * the same `dubdesk serve` beside the renderer (so the same HTTP, the same stylesheet, the same fonts):
 * - the first screen: the page as it stood when its first rows came, its scripts taken out. Loading it is
 *   the browser's floor for that screen: the request, the HTML, the stylesheet, style, layout and paint.
 * - the whole queue without our virtualiser: every row of the queue in the page at once (the first screen's
 *   rows, over and over: the seeded queue's rows are alike) in the same scrolling grid, scrolled the same
 *   way. No script of ours runs per frame: what is left is the browser's paint, raster and frame loop for
 *   those rows, on this machine. It is not a floor: Chromium repaints the scrolled grid every frame here
 *   (software, no composited scrolling), and walks all 2,000 rows to do it (traced: 1.4 s of paint in 2 s),
 *   where the app's grid holds the rows in view. Leaving the off-screen rows to the browser's own
 *   virtualisation (`content-visibility: auto`) was slower still (p95 101 ms against 44.6).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

export const FIRST_SCREEN_PAGE = 'reference-first-screen.html';
export const WHOLE_QUEUE_PAGE = 'reference-whole-queue.html';

/** Runs in the page (a string: see ui.ts). The document as it stands, without its scripts. */
const SNAPSHOT_SCRIPT = `(() => {
  const doc = document.documentElement.cloneNode(true);
  for (const s of doc.querySelectorAll('script, link[rel=modulepreload]')) s.remove();
  return '<!doctype html>' + doc.outerHTML;
})()`;

/**
 * Runs in the page. The same document with the rows shown in the grid's flow instead of in slots placed by
 * script, and a script that fills the grid with copies of them before the page's load (one script run,
 * nothing while it scrolls: 2,000 rows as HTML, 5 MB, took 4 s to load).
 */
const WHOLE_QUEUE_SCRIPT = `(() => {
  const doc = document.documentElement.cloneNode(true);
  for (const s of doc.querySelectorAll('script, link[rel=modulepreload]')) s.remove();
  const inner = doc.querySelector('.queue-inner');
  if (!inner) throw new Error('no queue in the page');
  for (const slot of [...inner.children]) {
    if (slot.querySelector('[role=row]:not(.row-loading)')) slot.removeAttribute('style');
    else slot.remove();
  }
  if (inner.children.length === 0) throw new Error('no rows in the page');
  inner.removeAttribute('style');
  const style = document.createElement('style');
  style.textContent = '.virtual-slot { position: static; }';
  doc.querySelector('head').append(style);
  const script = document.createElement('script');
  script.src = 'FILL_SCRIPT';
  doc.querySelector('body').append(script);
  return '<!doctype html>' + doc.outerHTML;
})()`;

/** The reference's one script: the grid filled to the queue's length with copies of the rows shown. */
const FILL = `{
  const inner = document.querySelector('.queue-inner');
  const shown = [...inner.children];
  const copies = document.createDocumentFragment();
  for (let i = shown.length; i < ROWS; i++) copies.append(shown[i % shown.length].cloneNode(true));
  inner.append(copies);
}`;

const FILL_SCRIPT = 'reference-whole-queue.js';

/** Writes both reference pages into the served renderer folder, from a page showing the queue's first rows. */
export async function writeReferencePages(page: Page, rendererDir: string, rows: number): Promise<void> {
  const first = (await page.evaluate(SNAPSHOT_SCRIPT)) as string;
  const whole = WHOLE_QUEUE_SCRIPT.replace('FILL_SCRIPT', FILL_SCRIPT);
  writeFileSync(join(rendererDir, FIRST_SCREEN_PAGE), first);
  writeFileSync(join(rendererDir, WHOLE_QUEUE_PAGE), (await page.evaluate(whole)) as string);
  writeFileSync(join(rendererDir, FILL_SCRIPT), FILL.replace('ROWS', String(rows)));
}
