/**
 * A source written again between its add and its upload, byte for byte (an export saved a second time, a
 * copy put over it): the job steps back from uploading to queued and says why in plain words, then sends
 * the file once it has stopped changing. One dub, one charge. (Two test processes making one media fixture
 * at once did this to the contract suite: a job went uploading, queued, uploading.)
 */
import { copyFileSync, renameSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { audioMp3 } from '../../helpers/media';
import { engineFor, quickRun, recordJobs } from '../../helpers/engine';
import { startedDubs } from '../../helpers/started-dubs';
import { tempDir } from '../../helpers/temp-dir';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ pipelineSeconds: 0.3 });
});
afterAll(() => sb.stop());

/** Each state once where it repeats (progress events), with what a queued job waits for. */
function life(events: ReturnType<typeof recordJobs>, id: number): string[] {
  const said = events
    .filter((j) => j.id === id)
    .map((j) => (j.waiting ? `${j.state} (${j.waiting.code}: ${j.waiting.message})` : j.state));
  return said.filter((s, i) => s !== said[i - 1]);
}

describe('a source written again, the same bytes, after its add', () => {
  it('steps back to queued saying it was written again, then is sent once and charged once', async () => {
    const engine = engineFor(sb);
    try {
      const dir = tempDir('saved-again-');
      const source = join(dir, 'interview.mp3');
      copyFileSync(audioMp3(2, 'saved-again.mp3'), source);
      const { added } = await engine.api.add({ inputs: [source], to: ['es'], outDir: tempDir() });
      // The same bytes put in its place, a minute newer: as a second copy renamed over the first.
      const again = join(dir, '.interview.mp3.part');
      copyFileSync(source, again);
      const later = new Date(Date.now() + 60_000);
      utimesSync(again, later, later);
      renameSync(again, source);
      const events = recordJobs(engine.api);
      const paidBefore = sb.state.ledger.length;

      expect(await engine.run(quickRun(1))).toBe('done');

      const id = added[0] ?? 0;
      const why = `${source} was written again since it was added (same size, a new modification time); it is sent once it stops changing`;
      expect(life(events, id).slice(0, 3)).toEqual(['uploading', `queued (source: ${why})`, 'uploading']);
      expect(life(events, id).at(-1)).toBe('completed');
      const job = await engine.api.getJob({ id });
      expect(job.history.filter((h) => h.event === 'wait').map((h) => h.reason)).toEqual([why]);
      expect(startedDubs(sb).filter((d) => d.name === 'interview.mp3')).toHaveLength(1);
      expect(sb.state.ledger.length - paidBefore).toBe(1);
    } finally {
      await engine.close();
    }
  });
});
