import { expect, vi } from 'vitest';
import type { FaceBridge } from '../../shared/face';
import { openDubdesk, type DubdeskHost } from '../../electron/engine/index';
import { tempDir } from './temp-dir';
import { seedQueue } from './seed';

/** The face's own extras of a bridge (files, folders, media links) as stand-ins: the rest is the engine's API. */
export function webBridge(api: DubdeskHost['api'], own: Partial<FaceBridge> = {}): FaceBridge {
  return {
    ...api,
    shell: 'web',
    mediaUrl: (id, kind) => `/media/${id}/${kind}`,
    stageFiles: async () => [],
    pickFiles: async () => null,
    pickFolder: async () => null,
    canReveal: false,
    showInFolder: async () => undefined,
    openPath: async () => undefined,
    ...own,
  };
}

/**
 * The real engine in this process over a queue seeded with `sources` sources in `languages`, pointed at a
 * service that is not there (the renderer store's tests read the queue, never send).
 */
export function seededEngine(sources: number, languages: string[]): DubdeskHost {
  const home = tempDir();
  seedQueue(home, sources, languages);
  return openDubdesk({ home, face: 'web', service: { baseUrl: 'http://127.0.0.1:9', apiKey: 'x' } });
}

/** Waits until `test` holds (the store answers as its fetches land). */
export async function until(test: () => boolean): Promise<void> {
  await vi.waitFor(() => expect(test()).toBe(true), { timeout: 10_000, interval: 10 });
}
