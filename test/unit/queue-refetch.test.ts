import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DubdeskHost } from '../../electron/engine/index';
import { createAppStore, type AppStore } from '../../renderer/src/store/index';
import { rowAt } from '../../renderer/src/store/rows';
import { seededEngine, until, webBridge } from '../helpers/store-over-engine';

/**
 * The store over the real engine in this process; the first page's next answer can be held back after the
 * engine has read it, as a loaded machine or a slow network holds it.
 */
function bridgeOver(host: DubdeskHost) {
  let holding = false;
  const held: (() => void)[] = [];
  const bridge = webBridge(host.api, {
    async listSources(request) {
      const answer = await host.api.listSources(request);
      if (holding && request.offset === 0) {
        holding = false;
        await new Promise<void>((release) => held.push(release));
      }
      return answer;
    },
  });
  return {
    bridge,
    holdNextFirstPage: () => void (holding = true),
    heldAnswers: () => held.length,
    release: () => held.splice(0).forEach((go) => go()),
  };
}

const firstSources = (store: AppStore, n: number) =>
  Array.from({ length: n }, (_, i) => rowAt(store.getState().pages, i)?.sourceName);

describe("the queue's order on screen after a move", () => {
  let host: DubdeskHost;
  let store: AppStore;
  let gate: ReturnType<typeof bridgeOver>;

  beforeAll(() => {
    host = seededEngine(40, ['es', 'fr']);
    gate = bridgeOver(host);
    store = createAppStore(gate.bridge);
  });
  afterAll(() => host.close());

  it('is the order after the move, even when the page was being fetched again as the move was made', async () => {
    store.getState().showRows(0, 10);
    await until(() => rowAt(store.getState().pages, 3) !== null);
    const before = firstSources(store, 3);
    const third = rowAt(store.getState().pages, 2);

    // A refetch (another change's jobs-changed) reads the first page, and its answer is still on its way...
    gate.holdNextFirstPage();
    store.getState().refetchPages();
    await until(() => gate.heldAnswers() === 1);
    // ...when the user's move is written, and the move's own jobs-changed asks for the page again.
    const moved = await host.api.moveJobs({ ids: third?.jobs.map((j) => j.id) ?? [], to: 'top' });
    expect(moved.moved).toHaveLength(2);
    store.getState().refetchPages();
    gate.release();

    await until(() => firstSources(store, 3).join() === [before[2], before[0], before[1]].join());
  });
});
