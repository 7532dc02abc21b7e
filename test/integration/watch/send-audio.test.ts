/**
 * A watched folder whose preset sends the sound alone: a video dropped in it is dubbed from its sound, and each
 * language's video is made here from the user's picture, as `dubdesk dub --send audio` does. The folder lives
 * under a name with a space and accents, as a user's "Vidéos à doubler" does.
 */
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { startedDubs } from '../../helpers/started-dubs';
import { tempDir } from '../../helpers/temp-dir';
import { ffprobeJson, videoMd5, videoMp4 } from '../../helpers/media';
import { addFolder, jobsOf, running, waitFor, watchEngine } from '../../helpers/watch';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

describe('a watched folder that sends the sound alone', () => {
  it('dubs a dropped video from its sound and puts each language under the picture it already had', async () => {
    const sb: Sandbox = await startSandbox({ pipelineSeconds: 0.3, balance: 100_000 });
    cleanup.push(() => sb.stop());
    const host = watchEngine(sb);
    cleanup.push(() => host.close());
    const run = running(host);
    cleanup.push(() => run.stop());

    const dir = join(tempDir('dubdesk-watch-'), 'Vidéos à doubler');
    await mkdir(dir);
    const out = tempDir('dubdesk-out-');
    const folder = await addFolder(host.api, dir, { to: ['es'], outDir: out, send: 'audio' });
    expect(folder.preset.send).toBe('audio');
    const talk = join(dir, 'Réunion du lundi.mp4');
    await copyFile(videoMp4(4, 'watch-send-audio.mp4'), talk);

    const [job] = await waitFor(
      'the dropped video dubbed',
      () => jobsOf(host.api, folder.id),
      (jobs) => jobs.length === 1 && jobs[0]?.state === 'completed',
    );
    expect((await host.api.getJob({ id: job?.id ?? 0 })).send).toBe('audio');
    // What the service got: a sound, no picture.
    const [sent] = startedDubs(sb);
    expect(ffprobeJson(sent?.uploadPath ?? '').streams.map((s) => s.codec_type)).toEqual(['audio']);
    const dubbed = join(out, 'Réunion du lundi.es.mp4');
    expect(videoMd5(dubbed)).toBe(videoMd5(talk));
    const audio = ffprobeJson(dubbed).streams.filter((s) => s.codec_type === 'audio');
    expect(audio.map((s) => s.tags?.language)).toEqual(['spa']);
  });
});
