/**
 * The balance shown in the header when its first read failed (the service answered 502, a laptop's Wi-Fi was
 * still waking): a window that is open and idle makes no call that would ask again, so the engine asks by
 * itself until it knows, and the window hears it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../../shared/contract/events';
import { openDubdesk } from '../../../electron/engine/index';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { tempDir } from '../../helpers/temp-dir';

describe('a balance whose first read failed', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ balance: 4_321, faults: { rate502: 1 } });
  });
  afterAll(async () => {
    await sb.stop();
  });

  it('is asked again without anyone looking, and an open window is told', async () => {
    const host = openDubdesk({
      home: tempDir(),
      face: 'web',
      service: { baseUrl: sb.baseUrl, apiKey: sb.account.apiKey },
    });
    try {
      const balances: (number | null)[] = [];
      host.api.subscribe((e: EngineEvent) => {
        if (e.type === 'totals') balances.push(e.totals.balance);
      });
      // The window's first look: the read it starts fails.
      expect((await host.api.totals()).balance).toBeNull();
      await expect.poll(() => sb.faults.fired.rate502, { timeout: 10_000 }).toBeGreaterThan(0);
      sb.setFaults({ rate502: 0 });
      // Nobody calls again: the answer must come to the window by itself.
      await expect.poll(() => balances.at(-1), { timeout: 30_000 }).toBe(4_321);
    } finally {
      await host.close();
    }
  });
});
