/**
 * What the audio path sends is billed what the estimate said (issue 34): the service bills whole seconds of
 * the length it measures, so a sound sent that measures a few milliseconds over a source of a whole number
 * of seconds costs one credit more per language than the estimate and the whole file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import type { ApiGeneration } from '../../../shared/contract/jobs';
import { videoSounding, type SoundCodec } from '../../helpers/media';
import { engineFor, quickRun } from '../../helpers/engine';
import { tempDir } from '../../helpers/temp-dir';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ pipelineSeconds: 0.3, balance: 100_000 });
});
afterAll(() => sb.stop());

/** Legacy takes MP4 sources only: its PCM case has no source it would take (PCM goes in a MOV). */
const CASES: [ApiGeneration, SoundCodec][] = [
  ...(['v2', 'v1'] as const).flatMap((api) =>
    (['aac', 'mp3', 'opus', 'pcm'] as const).map((codec): [ApiGeneration, SoundCodec] => [api, codec]),
  ),
  ['legacy', 'aac'],
  ['legacy', 'mp3'],
  ['legacy', 'opus'],
];

describe('the sound sent is billed what the estimate said', () => {
  it.each(CASES)('%s, a %s sound: a 9 s video is estimated 9 credits and charged 9', async (api, codec) => {
    const engine = engineFor(sb, tempDir('home'));
    const source = videoSounding(codec, 9, `générations ${api} ${codec}`);
    try {
      const estimate = await engine.api.estimate({ inputs: [source], to: ['de'], api, send: 'audio' });
      expect(estimate.files[0]).toMatchObject({ creditsPerLanguage: 9, sends: { what: 'audio' } });
      const { added } = await engine.api.add({
        inputs: [source],
        to: ['de'],
        api,
        send: 'audio',
        outDir: tempDir('out'),
      });
      expect(await engine.run(quickRun(1))).toBe('done');
      const [id] = added;
      const job = await engine.api.getJob({ id: id ?? 0 });
      expect(job).toMatchObject({ state: 'completed', send: 'audio', estimatedCredits: 9 });
      const dub = sb.state.dubs.get(job?.remoteId ?? '');
      // What the service measured of what was sent: no more than the source's 9 s.
      expect(dub?.measuredDuration).toBeLessThanOrEqual(9);
      expect(job?.creditsCharged).toBe(9);
    } finally {
      await engine.close();
    }
  });
});
