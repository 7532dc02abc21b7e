/**
 * kill -9 in each step of the audio path (issue 34): while the sound is extracted, while it is uploaded,
 * while the dub is downloaded and while the video is rebuilt. Each kill waits for its step to be under way
 * (a `.part` of the sound, the sound sent but no dub yet, a dub charged with no video yet, a `.part` of the
 * video), then the queue is run to the end: every job completes with its own picture under the dub, each
 * dub is paid once, and no `.part` is left anywhere.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli, startCli } from '../../helpers/cli';
import { startedDubs } from '../../helpers/started-dubs';
import { tempDir } from '../../helpers/temp-dir';
import { filesUnder as files } from '../../helpers/long-extraction';
import { ffprobeJson, videoMd5, videoWebm } from '../../helpers/media';

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.stop();
  sb = undefined;
});

type Phase = 'extraction' | 'upload' | 'download' | 'rebuild';

/** Whether the run is in the middle of `phase` now, read from the disk and the service. */
async function inPhase(phase: Phase, s: Sandbox, home: string, out: string): Promise<boolean> {
  const staged = await files(join(home, 'staging', '.audio-path', 'audio'));
  const results = await files(out);
  switch (phase) {
    case 'extraction':
      return staged.some((f) => f.endsWith('.part'));
    case 'upload':
      return staged.some((f) => !f.endsWith('.part')) && startedDubs(s).length === 0;
    case 'download':
      return s.state.ledger.length > 0 && !results.some((f) => /\.(mp4|mkv)$/.test(f));
    case 'rebuild':
      return results.some((f) => /\.(mp4|mkv)\.[0-9a-f]+\.part$/.test(f));
  }
}

describe.each(['extraction', 'upload', 'download', 'rebuild'] as Phase[])(
  'kill -9 during the %s',
  (phase) => {
    it('every job completes, each dub is paid once, no .part is left', async () => {
      // Half a minute of Opus: re-encoded to AAC on the way out (long enough to be caught at it), VP8 going into
      // Matroska on the way back. A slow uplink and some latency open the upload's and download's windows.
      const s = await startSandbox({
        pipelineSeconds: 1,
        balance: 100_000,
        linkRateMiBps: phase === 'upload' ? 0.1 : 50,
        faults: { latencyMs: phase === 'download' ? 150 : 5 },
      });
      sb = s;
      const work = tempDir('dubdesk-crash-audio-');
      const home = join(work, 'home');
      const out = join(work, 'out');
      const env = envFor(s, home);
      const source = videoWebm(30, 'lecture.webm');
      const added = await runCli(['add', source, '--to', 'es,fr', '--out', out, '--send', 'audio'], env);
      expect(added.code, added.stderr).toBe(0);

      let killedIn = 0;
      for (let attempt = 0; attempt < 3 && killedIn === 0; attempt++) {
        const { child, done } = startCli(
          ['run', '--until-done', '--poll-interval', '0.1', '--concurrency', '2'],
          env,
        );
        let over = false;
        void done.then(() => (over = true));
        while (!over) {
          if (await inPhase(phase, s, home, out)) {
            child.kill('SIGKILL');
            killedIn++;
            break;
          }
          await new Promise((r) => setTimeout(r, 10)); // the scenario: look again in a moment
        }
        await done;
      }
      expect(killedIn, `a kill landed during the ${phase}`).toBe(1);

      const final = await runCli(['run', '--until-done', '--poll-interval', '0.1'], env);
      expect(final.code, final.stderr).toBe(0);
      const status = JSON.parse((await runCli(['status', '--json'], env)).stdout) as {
        jobs: {
          state: string;
          remoteId: string;
          outputs: { type: string; path: string }[];
          qc: { measured?: { path: string; kind: string } | null } | null;
        }[];
      };
      expect(status.jobs.map((j) => j.state)).toEqual(['completed', 'completed']);
      const started = startedDubs(s);
      expect(started).toHaveLength(2);
      expect(s.state.ledger.map((c) => c.dubId).sort()).toEqual(started.map((d) => d.id).sort());
      for (const d of started)
        expect(ffprobeJson(d.uploadPath).streams.map((st) => st.codec_type)).toEqual(['audio']);
      const picture = videoMd5(source);
      for (const job of status.jobs) {
        const video = job.outputs.find((o) => o.type === 'translated_mp4');
        expect(video?.path).toMatch(/\.mkv$/);
        expect(videoMd5(video?.path ?? '')).toBe(picture);
        const audio = ffprobeJson(video?.path ?? '').streams.filter((st) => st.codec_type === 'audio');
        expect(audio).toHaveLength(1);
        // Its QC measured the video as it is now, made again after the kill where it had to be.
        expect(job.qc?.measured).toMatchObject({ path: video?.path, kind: 'rebuilt' });
      }
      expect((await files(out)).filter((f) => f.endsWith('.part'))).toEqual([]);
      expect(
        (await files(join(home, 'staging'))).filter((f) => /\.(part|m4a|mp4|mp3|audio)$/.test(f)),
      ).toEqual([]);
      expect(existsSync(out)).toBe(true);
    }, 240_000);
  },
);
