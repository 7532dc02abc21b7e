/**
 * The `scale:` figures in Chromium against `dubdesk serve`: first render of the 100,000-job home vs an
 * empty one, p95 frame time scrolling it vs the 1,000-job queue, and serve's memory with it open vs 1,000 jobs.
 */
import { readFileSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM } from '../helpers/chromium';
import { alternate, median, ratioOf, round, type Figure } from './figures';
import { benchSandbox } from './sandbox';
import { buildHome, type Home } from './scale-homes';
import {
  ARGS,
  buildServedRenderer,
  p95,
  SCROLL_ARGS,
  startServeOn,
  visit,
  within,
  type RunningServe,
} from './ui';

/** First renders counted per home, after one that builds caches; scrolls of each queue, in turns. */
const RENDERS = 3;
const SCROLLS = 3;
const SCROLL_MS = 3000;
/** A row's first cell that holds a source (not the skeleton of a page still on its way). */
const ROW = '[role=row][aria-rowindex]:not(.row-loading)';

/**
 * Runs in the page (a string: see ui.ts). A screenful every few frames, turning back at either end, so a
 * short queue scrolls for the whole time too: a 100-job queue (20 rows) is shorter than two windows, and
 * scrolling it one way only stopped after two frames; its "frame times" were then those of a page doing
 * nothing (17.8 ms, the frame cadence), not of scrolling.
 */
const BOUNCE_SCRIPT = `new Promise((resolve, reject) => {
  const grid = document.querySelector('[role=grid]');
  if (!grid) return reject(new Error('no queue grid'));
  const out = [];
  let last = performance.now();
  const end = last + ${SCROLL_MS};
  let step = 240;
  function frame(t) {
    out.push(t - last);
    last = t;
    const max = grid.scrollHeight - grid.clientHeight;
    if ((step > 0 && grid.scrollTop >= max - 1) || (step < 0 && grid.scrollTop <= 0)) step = -step;
    grid.scrollTop += step;
    if (t < end) requestAnimationFrame(frame);
    else resolve(out.slice(1));
  }
  requestAnimationFrame(frame);
})`;

async function scrollFrames(browser: Browser, app: RunningServe): Promise<number[]> {
  const { context, page } = await visit(browser, app);
  await page.locator(ROW).first().waitFor({ timeout: 60_000 });
  const deltas = (await page.evaluate(BOUNCE_SCRIPT)) as number[];
  await context.close();
  return deltas;
}
/** What a first render shows: a row of a real source, or the empty queue's words. */
const SHOWN = '[role=row][aria-rowindex]:not(.row-loading), .queue-empty-title';

const FIRST_SHOWN_SCRIPT = `new MutationObserver((_, observer) => {
  if (document.querySelector(${JSON.stringify(SHOWN)})) {
    window.__shown = performance.now();
    observer.disconnect();
  }
}).observe(document, { childList: true, subtree: true });`;

async function firstShown(browser: Browser, app: RunningServe): Promise<number> {
  const { context, page } = await visit(browser, app, FIRST_SHOWN_SCRIPT);
  await page.locator(SHOWN).first().waitFor({ timeout: 60_000 });
  const ms = Number(await page.evaluate('window.__shown'));
  await context.close();
  return ms;
}

/** Resident memory of a process and every process under it (the CLI may hand serve to a child), in MiB. */
function rssTreeMb(pid: number): number {
  let kb = 0;
  const walk = (p: number) => {
    try {
      const status = readFileSync(`/proc/${p}/status`, 'utf8');
      kb += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      const kids = readFileSync(`/proc/${p}/task/${p}/children`, 'utf8').trim();
      for (const k of kids ? kids.split(/\s+/) : []) walk(Number(k));
    } catch {
      /* gone */
    }
  };
  walk(pid);
  return kb / 1024;
}

async function withServe<T>(home: Home, baseUrl: string, fn: (app: RunningServe) => Promise<T>): Promise<T> {
  const app = await startServeOn(home.home, baseUrl);
  try {
    return await fn(app);
  } finally {
    const exited = new Promise((resolve) => app.child.once('exit', resolve));
    app.child.kill('SIGTERM');
    await exited;
  }
}

/** The first renders of `count` fresh visits, after one that builds caches on both sides. */
async function renders(browser: Browser, app: RunningServe, count: number): Promise<number[]> {
  await within(120_000, 'first render', firstShown(browser, app));
  const ms: number[] = [];
  for (let i = 0; i < count; i++) ms.push(await within(120_000, 'first render', firstShown(browser, app)));
  return ms;
}

const listed = (xs: readonly number[]) => xs.map((x) => round(x, 1)).join(', ');

const scrollP95 = async (scroller: Browser, app: RunningServe) =>
  p95(await within(130_000, 'scroll', scrollFrames(scroller, app)));

export async function scaleUiFigures(
  work: string,
  big: Home,
  small: Home,
  took: (part: string) => void,
): Promise<Figure[]> {
  await buildServedRenderer();
  took('UI: renderer built (setup; once a run, with the ui section)');
  const empty = buildHome(work, 0, 0);
  const sb = await benchSandbox({ pipelineSeconds: 100_000, ffmpeg: false });
  let browser: Browser | null = null;
  let scroller: Browser | null = null;
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
    scroller = await chromium.launch({ executablePath: CHROMIUM, args: SCROLL_ARGS, headless: true });
    const [b, s] = [browser, scroller];
    const emptyRenders = await withServe(empty, sb.baseUrl, (app) => renders(b, app, RENDERS));
    const none = { render: median(emptyRenders) };
    took(`UI: empty home, ${RENDERS + 1} visits`);
    // Scroll and memory: the 1,000-job queue, visited and scrolled the same way as the big one. Not the
    // issue's 100 jobs: 20 rows are shorter than two windows, their frames show rows all drawn already,
    // not the rows and pages a long scroll brings in; 200 rows bring them in as the big queue does. Both
    // served at once and scrolled in turns: this VM's load moves within a minute (a run scrolled the big
    // queue at 47.6 ms p95, another at 23.8, at the same code).
    const [large, thousand] = await withServe(big, sb.baseUrl, (bigApp) =>
      withServe(small, sb.baseUrl, async (smallApp) => {
        const bigRenders = await renders(b, bigApp, RENDERS);
        await within(120_000, 'first render', firstShown(b, smallApp));
        took(`UI: 100,000-job home, ${RENDERS + 1} visits, and the 1,000-job one's first`);
        const turns = await alternate(
          SCROLLS,
          () => scrollP95(s, bigApp),
          () => scrollP95(s, smallApp),
        );
        took(`UI: ${SCROLLS} scrolls of each queue`);
        // The spread of each figure's runs, to judge whether these few rounds are enough.
        process.stderr.write(
          `bench: scale: first renders ${listed(bigRenders)} ms vs empty ${listed(emptyRenders)};` +
            ` scroll p95s ${listed(turns.a)} ms vs ${listed(turns.b)}\n`,
        );
        return [
          { render: median(bigRenders), scroll: median(turns.a), rssMb: rssTreeMb(bigApp.child.pid ?? 0) },
          { scroll: median(turns.b), rssMb: rssTreeMb(smallApp.child.pid ?? 0) },
        ] as const;
      }),
    );
    const render = ratioOf(large.render, none.render);
    const scroll = ratioOf(large.scroll, thousand.scroll);
    const memory = ratioOf(large.rssMb, thousand.rssMb);
    return [
      {
        name: 'scale: UI first render, 100,000-job home, serve + Chromium (navigation -> first rows)',
        measured: round(large.render, 0),
        unit: 'ms',
        target: '<= 1.5x',
        reference: `empty home: ${round(none.render, 0)} ms`,
        ratio: render,
        pass: render <= 1.5,
      },
      {
        name: `scale: UI scroll, p95 frame time, 100,000-job queue (a screenful every frame, back at the ends, ${SCROLL_MS / 1000} s)`,
        measured: round(large.scroll, 1),
        unit: 'ms',
        target: '<= 1.3x',
        reference: `1,000-job queue, scrolled the same way: ${round(thousand.scroll, 1)} ms`,
        ratio: scroll,
        pass: scroll <= 1.3,
      },
      {
        name: "scale: memory, serve's RSS with the 100,000-job home open in the browser",
        measured: round(large.rssMb, 0),
        unit: 'MiB',
        target: '<= 1.5x and < 300',
        reference: `1,000-job home: ${round(thousand.rssMb, 0)} MiB`,
        ratio: memory,
        pass: memory <= 1.5 && large.rssMb < 300,
      },
    ];
  } finally {
    await browser?.close();
    await scroller?.close();
    await sb.stop();
  }
}
