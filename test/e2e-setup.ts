import { appendFileSync, rmSync } from 'node:fs';
import { CPU_REPORT, TICKS_PER_SECOND, treeTicks } from './helpers/cpu-tree';
import { startSharedChromium } from './helpers/chromium';
import { buildSharedRenderer } from './helpers/renderer-build';

/**
 * What the e2e tier's test processes share, made once before they start: the renderer built as shipped, and
 * one Chromium, in which each test's page is a new context (a fresh profile, as before). Each file had built
 * the renderer and started a Chromium of its own, a second or two of CPU each (DUBDESK_CPU_REPORT).
 */
export default async function setup(): Promise<() => Promise<void>> {
  const renderer = await buildSharedRenderer();
  const chromium = await startSharedChromium();
  return async () => {
    if (CPU_REPORT) {
      const pid = chromium.process().pid ?? 0;
      const browser = pid ? treeTicks(pid) / TICKS_PER_SECOND : NaN;
      const { user, system } = process.cpuUsage();
      appendFileSync(CPU_REPORT, `(the run's Chromium)\t${browser.toFixed(2)}\n`);
      appendFileSync(CPU_REPORT, `(vitest's own process)\t${((user + system) / 1e6).toFixed(2)}\n`);
    }
    await chromium.close();
    rmSync(renderer.root, { recursive: true, force: true });
  };
}
