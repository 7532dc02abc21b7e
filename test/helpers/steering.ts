import { afterEach } from 'vitest';
import type { SendWindow } from '../../shared/schedule';
import { startSandbox, type Sandbox } from '../../electron/sandbox/server';

/**
 * The world of the steering tests (order, presets, the line, the budget): what each test opens is closed
 * after it, last first, and a sandbox quick enough that a batch ends in a second, with credits to spare.
 */
export function steeringWorld() {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });
  return {
    cleanup,
    async sandbox(): Promise<Sandbox> {
      const sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.2, balance: 100_000 });
      cleanup.push(() => sb.stop());
      return sb;
    },
  };
}

/** A window that is closed now, whatever the time of day: it opens two hours from now for an hour. */
export function closedWindow(): SendWindow {
  const at = (hours: number) => {
    const d = new Date(Date.now() + hours * 3_600_000);
    return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
  };
  return { from: at(2), to: at(3) };
}
