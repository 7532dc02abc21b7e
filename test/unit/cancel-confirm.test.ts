import { describe, expect, it, vi } from 'vitest';
import type { JobView } from '../../shared/contract/jobs';
import type { FaceBridge } from '../../shared/face';
import { createAppStore } from '../../renderer/src/store/index';

/** Only what the cancel confirm reads of a job; nothing is sent (the confirm is answered "no"). */
const jobAt = (id: number, state: JobView['state'], remoteId: string | null) =>
  ({ id, state, remoteId, creditsCharged: null }) as JobView;

async function confirmBody(jobs: JobView[]): Promise<string> {
  const store = createAppStore({} as FaceBridge);
  const asked = store.getState().bulk('cancel', jobs);
  await vi.waitFor(() => expect(store.getState().confirmRequest).not.toBeNull());
  const body = store.getState().confirmRequest?.body ?? '';
  store.getState().answerConfirm(false);
  expect(await asked).toBeNull();
  return body;
}

describe('the cancel confirm', () => {
  it('says the service may still charge for a dub it already started, and only then', async () => {
    expect(await confirmBody([jobAt(1, 'processing', 'dub-1'), jobAt(2, 'queued', null)])).toMatch(
      /already started 1 dub and cannot stop it: it may still charge for it/,
    );
    expect(await confirmBody([jobAt(3, 'queued', null)])).not.toMatch(/charge/);
  });
});
