/**
 * The sound the audio path sends measures no more than its source, as the service measures it (the
 * sandbox's probeMedia), whichever ffmpeg makes it and whichever ffprobe measures it.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractAudio } from '../../electron/engine/media/ffmpeg/extract';
import { probeStreams, soundSeconds } from '../../electron/engine/media/ffmpeg/streams';
import { probeMedia } from '../../electron/sandbox/media';
import { ProcessPool } from '../../electron/sandbox/process-pool';
import type { ApiGeneration } from '../../shared/contract/jobs';
import { videoSounding, type SoundCodec } from '../helpers/media';
import { tempDir } from '../helpers/temp-dir';
import { shipped, system, TOOLSETS } from '../helpers/toolsets';

const CODECS: SoundCodec[] = ['aac', 'mp3', 'opus', 'pcm'];
const APIS: ApiGeneration[] = ['v2', 'v1', 'legacy'];

describe.each(TOOLSETS)('the sound sent, made by the ffmpeg %s', (_name, toolsOf) => {
  it.each(CODECS)(
    'from a 5 s video with a %s sound: measures at most 5 s for every generation',
    async (codec) => {
      const tools = await toolsOf();
      const source = videoSounding(codec, 5, `five ${codec}`);
      const streams = await probeStreams(tools.ffprobe, source);
      expect(soundSeconds(streams)).toBe(5);
      const dir = tempDir('sent');
      const measurers = [new ProcessPool(await shipped(), 1), new ProcessPool(await system(), 1)];
      for (const api of APIS) {
        const sent = await extractAudio(tools, source, streams, api, join(dir, api), soundSeconds(streams));
        for (const pool of measurers) {
          const { duration } = await probeMedia(sent.path, pool);
          expect({ api, duration: Math.round(duration * 1000) / 1000 }).toEqual({ api, duration: 5 });
        }
      }
    },
  );
});
