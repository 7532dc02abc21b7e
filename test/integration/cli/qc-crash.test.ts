/**
 * kill -9 between the rebuild and the QC (sending the sound alone): the video is made and recorded, the
 * dubbed sound it was made from still in staging. The next run measures the video the user is handed, not
 * that sound, records its check once, and lets the staged sound go.
 */
import { copyFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StatusJson } from '../../../electron/cli/json-shapes';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, killedAtHold, runCli } from '../../helpers/cli';
import { ebur128Measure, speechVideo } from '../../helpers/deliver-media';
import { tempDir } from '../../helpers/temp-dir';

let sb: Sandbox;
beforeAll(async () => {
  // Its sound runs 4 s past the picture, the last line louder: the staged MP3 and the video differ by LUs.
  sb = await startSandbox({ pipelineSeconds: 0.3, faults: { badDubs: { fr: ['long'] } } });
});
afterAll(() => sb.stop());

const HOLD = 'qc-measure';

const status = async (env: NodeJS.ProcessEnv) =>
  StatusJson.parse(JSON.parse((await runCli(['status', '--json'], env)).stdout));

describe('kill -9 between the rebuild and the QC', () => {
  it('the next run measures the video made here, records its check once, and removes the staged sound', async () => {
    const work = tempDir('dubdesk-qc-crash-');
    const home = join(work, 'home');
    const source = join(work, 'réunion du lundi.mp4');
    copyFileSync(speechVideo(10, 'réunion du lundi.mp4'), source);
    const env = envFor(sb, home);
    const added = await runCli(
      ['add', source, '--to', 'fr', '--send', 'audio', '--subtitles', 'vtt,srt', '--package', 'mkv'],
      env,
    );
    expect(added.code, added.stderr).toBe(0);

    await killedAtHold(HOLD, ['run', '--until-done', '--poll-interval', '0.2'], env);
    const [killed] = (await status(env)).jobs;
    expect(killed?.state).toBe('completed');
    expect(killed?.qc).toBeNull();
    const video = killed?.outputs.find((o) => o.type === 'translated_mp4')?.path ?? '';
    expect(existsSync(video)).toBe(true);
    // The sound the video was made from is still here: what a check that did not look at the video would hear.
    const staged = join(home, 'staging', '.audio-path', 'dubbed');
    expect(readdirSync(staged)).toHaveLength(1);

    const r = await runCli(['run', '--until-done', '--poll-interval', '0.2'], env);
    expect(r.code, r.stderr).toBe(0);
    const [job] = (await status(env)).jobs;
    const typed = ebur128Measure(video);
    const said = JSON.stringify({ qc: job?.qc?.loudness, typed });
    expect(Math.abs((job?.qc?.loudness.integrated ?? 99) - typed.integrated), said).toBeLessThanOrEqual(0.1);
    expect(Math.abs((job?.qc?.loudness.truePeak ?? 99) - typed.truePeak)).toBeLessThanOrEqual(0.1);
    expect(job?.qc?.measured).toMatchObject({ path: video, kind: 'rebuilt', fit: { how: 'cut' } });
    // The dub's own length, from the sound the video was made from: kept through the restart for it.
    expect(job?.qc?.durationDelta).toBeCloseTo(4, 0);
    expect(job?.qc?.problems.map((p) => p.code)).toContain('length');
    // Recorded once: one SubRip file, one package (none moved to previous/), the video made once.
    expect(job?.outputs.filter((o) => o.type === 'translated_subtitle_srt')).toHaveLength(1);
    expect(readdirSync(work).sort()).toEqual([
      'home',
      'réunion du lundi.fr.mp4',
      'réunion du lundi.fr.srt',
      'réunion du lundi.fr.vtt',
      'réunion du lundi.mp4',
      'réunion du lundi.multi.mkv',
    ]);
    const logs = await runCli(['logs', String(job?.id)], env);
    const history = logs.stdout.slice(0, logs.stdout.indexOf('\nLog ('));
    expect(history.match(/rebuilt: made .*réunion du lundi\.fr\.mp4 here/g)).toHaveLength(1);
    expect(readdirSync(staged)).toEqual([]);
  }, 180_000);
});
