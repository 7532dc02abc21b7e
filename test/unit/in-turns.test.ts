import { setImmediate as turn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { mapInTurns } from '../../electron/engine/files/in-turns';

describe('mapInTurns', () => {
  it('keeps up to `limit` calls going at once, and gives the answers in the order of the items', async () => {
    let running = 0;
    let most = 0;
    const out = await mapInTurns([5, 1, 4, 2, 3, 0, 6], 3, async (n) => {
      most = Math.max(most, ++running);
      for (let i = 0; i < n; i++) await turn(); // later items finish first
      running--;
      return n * 10;
    });
    expect(out).toEqual([50, 10, 40, 20, 30, 0, 60]);
    expect(most).toBe(3);
  });

  it('fails with the first failure, and starts nothing after it', async () => {
    const started: number[] = [];
    const work = mapInTurns([1, 2, 3, 4, 5], 2, async (n) => {
      started.push(n);
      await turn();
      if (n === 2) throw new Error('two');
      return n;
    });
    await expect(work).rejects.toThrow('two');
    expect(started).toEqual([1, 2, 3]);
  });
});
