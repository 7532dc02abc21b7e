/**
 * The audio path (issue 34) through the engine against the sandbox, with real ffmpeg: what a batch sends,
 * said before anything is sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { locateMediaTools } from '../../../electron/media-tools/locate';
import { planSends } from '../../../electron/engine/app/batches/send-plan';
import { probeFile } from '../../../electron/engine/media/probe';
import { sendsWords } from '../../../shared/sends';
import { copyFile, readdir, readFile, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import type { ApiGeneration } from '../../../shared/contract/jobs';
import { audioMp3, ffprobeJson, videoMd5, videoMov, videoMp4 } from '../../helpers/media';
import { allJobs, engineFor, quickRun } from '../../helpers/engine';
import { startedDubs } from '../../helpers/started-dubs';
import { tempDir } from '../../helpers/temp-dir';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ pipelineSeconds: 0.3, balance: 100_000 });
});
afterAll(() => sb.stop());

describe('what a batch sends', () => {
  it('estimates the sound alone for a video, the whole file for a sound, and the whole file when asked', async () => {
    const engine = engineFor(sb);
    try {
      const video = videoMp4(20, 'talk 20s.mp4');
      const mp3 = audioMp3(3, 'voice.mp3');
      const batch = {
        inputs: [video, mp3],
        to: ['es', 'fr'],
        outDir: tempDir('out'),
        send: 'audio' as const,
      };
      const e = await engine.api.estimate(batch);
      const byName = new Map(e.files.map((f) => [f.name, f.sends]));
      expect(byName.get('talk 20s.mp4')).toMatchObject({ what: 'audio', why: null });
      const audioBytes = byName.get('talk 20s.mp4')?.bytes ?? 0;
      const videoBytes = e.files.find((f) => f.name === 'talk 20s.mp4')?.bytes ?? 0;
      expect(audioBytes).toBeGreaterThan(0);
      expect(audioBytes).toBeLessThan(videoBytes);
      expect(byName.get('voice.mp3')).toMatchObject({ what: 'file', why: null });
      const mp3Bytes = e.files.find((f) => f.name === 'voice.mp3')?.bytes ?? 0;
      // Two languages: each job sends its own copy.
      expect(e.sends).toEqual({
        bytes: 2 * (audioBytes + mp3Bytes),
        wholeBytes: 2 * (videoBytes + mp3Bytes),
        audioFiles: 1,
        wholeOverLimit: 0,
        api: 'v2',
        notice: null,
      });
      expect(sendsWords(e.sends ?? { bytes: 0, wholeBytes: 0, audioFiles: 0 })).toMatch(
        /^sends [\d.]+ KiB \(audio\) instead of [\d.]+ KiB$/,
      );
      const whole = await engine.api.estimate({ ...batch, send: 'file' });
      expect(whole.sends).toMatchObject({ bytes: whole.sends?.wholeBytes, audioFiles: 0 });
    } finally {
      await engine.close();
    }
  });

  it('"instead of" is what the whole-file path would really send: upload once where it applies', async () => {
    const engine = engineFor(sb);
    const MiB = 1024 * 1024;
    const talk = join(tempDir('instead'), 'talk 60 MiB.mp4');
    await copyFile(videoMp4(3, 'instead-of-60.mp4'), talk);
    await truncate(talk, 60 * MiB);
    const batch = { inputs: [talk], to: ['es', 'fr', 'de'], outDir: tempDir('out') };
    try {
      const audio = await engine.api.estimate({ ...batch, send: 'audio' });
      expect(audio.sends).toMatchObject({ wholeBytes: 60 * MiB, audioFiles: 1 });
      expect(audio.sends?.bytes).toBeLessThan(MiB);
      const whole = await engine.api.estimate({ ...batch, send: 'file' });
      expect(whole.uploadOnce).toEqual({ enabled: true, bytesSaved: 120 * MiB, files: 1, outOf: 1 });
      expect(whole.sends).toEqual({
        bytes: 60 * MiB,
        wholeBytes: 60 * MiB,
        audioFiles: 0,
        wholeOverLimit: 0,
        api: 'v2',
        notice: null,
      });
      // Upload once turned off: the whole file would go up for each language. The sound, under the line
      // where upload once pays off, goes up for each language either way.
      const each = await engine.api.estimate({ ...batch, send: 'audio', uploadOnce: false });
      expect(each.sends?.wholeBytes).toBe(180 * MiB);
      expect(each.sends?.bytes).toBe(audio.sends?.bytes);
      expect((audio.sends?.bytes ?? 0) % 3).toBe(0);
    } finally {
      await engine.close();
    }
  });

  it('sends the whole file, and says so once, where no ffmpeg is found; a video without sound too', async () => {
    const dir = tempDir('no-tools');
    const files = [await probeFile(videoMp4(3, 'a.mp4')), await probeFile(videoMp4(3, 'b.mp4'))];
    const none = await planSends(
      files,
      { send: 'audio', api: 'v2' },
      locateMediaTools({ from: [dir], env: { PATH: dir } }),
    );
    expect([...none.bySource.values()].map((c) => c.what)).toEqual(['file', 'file']);
    expect(none.notice).toMatch(/^no ffmpeg found .*: the whole file is sent$/);
    const silent = await probeFile(videoMov(2));
    const plan = await planSends([silent], { send: 'audio', api: 'v2' });
    expect(plan.bySource.get(silent.path)).toMatchObject({ what: 'file', why: 'it has no sound to dub' });
    expect(plan.notice).toBeNull();
  });
});

describe('a video with no sound', () => {
  it.each(['audio', 'file'] as const)(
    'sending the %s: is refused when added, naming the file, and nothing is sent or charged for it',
    async (send) => {
      const engine = engineFor(sb, tempDir('home'));
      const silent = videoMov(2);
      const talk = videoMp4(2, `talk-beside-a-silent-one-${send}.mp4`);
      try {
        const before = startedDubs(sb).length;
        const r = await engine.api.add({ inputs: [silent, talk], to: ['es'], api: 'v2', send });
        expect(r.refused.map((x) => [x.input, x.error.message])).toEqual([
          [silent, `${silent} has no sound to dub: the service would charge for a dub with no voice in it.`],
        ]);
        expect(r.added).toHaveLength(1);
        expect(await engine.run(quickRun(2))).toBe('done');
        expect(startedDubs(sb).length - before).toBe(1);
      } finally {
        await engine.close();
      }
    },
  );
});

describe('dubbing with the sound alone', () => {
  it.each(['v2', 'v1', 'legacy'] as ApiGeneration[])(
    '%s: sends only the sound; talk.es.mp4 and talk.fr.mp4 carry the source picture bit for bit under the dub',
    async (api) => {
      const home = tempDir('home');
      const engine = engineFor(sb, home);
      const out = tempDir('out');
      const talk = videoMp4(8, `talk-${api}.mp4`);
      try {
        const { added } = await engine.api.add({
          inputs: [talk],
          to: ['es', 'fr'],
          api,
          outDir: out,
          send: 'audio',
        });
        const before = new Set(startedDubs(sb).map((d) => d.id));
        expect(await engine.run(quickRun(2))).toBe('done');
        const jobs = (await allJobs(engine.api)).filter((j) => added.includes(j.id));
        expect(jobs.map((j) => j.state)).toEqual(['completed', 'completed']);
        // What the service got: a sound, no picture, once per language.
        const uploads = startedDubs(sb).filter((d) => !before.has(d.id));
        expect(uploads).toHaveLength(2);
        for (const d of uploads) {
          expect(ffprobeJson(d.uploadPath).streams.map((st) => st.codec_type)).toEqual(['audio']);
          expect(d.artifacts?.translated_mp4).toBeUndefined();
        }
        const sourceSeconds = Number(ffprobeJson(talk).format.duration);
        for (const [lang, tag] of [
          ['es', 'spa'],
          ['fr', 'fre'],
        ] as const) {
          const video = join(out, `talk-${api}.${lang}.mp4`);
          expect(videoMd5(video)).toBe(videoMd5(talk));
          const audio = ffprobeJson(video).streams.filter((st) => st.codec_type === 'audio');
          expect(audio).toHaveLength(1);
          expect(audio[0]?.tags?.language).toBe(tag);
          expect(Math.abs(Number(audio[0]?.duration) - sourceSeconds)).toBeLessThan(0.05);
          const job = jobs.find((j) => j.destLang === lang);
          expect(job?.outputs.map((o) => o.type).sort()).toEqual(['translated_mp4', 'translated_subtitle']);
          const detail = await engine.api.getJob({ id: job?.id ?? 0 });
          expect(detail.send).toBe('audio');
          const said = detail.history.map((h) => `${h.event}: ${h.reason ?? ''}`).join('\n');
          expect(said).toMatch(/audio-staged: sends its sound as it is: [\d.]+ KiB instead of [\d.]+ KiB/);
          expect(said).toMatch(/rebuilt: made .* here: the picture copied as it is; the dubbed audio /);
        }
        // Nothing staged is left once every job is done.
        const staged = await readdir(join(home, 'staging', '.audio-path'), { recursive: true }).catch(
          () => [],
        );
        expect(staged.filter((f) => !['audio', 'dubbed', 'writers'].includes(String(f)))).toEqual([]);
      } finally {
        await engine.close();
      }
    },
  );

  it('--send file behaves as before: the whole file goes up, the service video comes back byte for byte', async () => {
    const engine = engineFor(sb);
    const out = tempDir('out');
    const talk = videoMp4(4, 'whole-talk.mp4');
    try {
      const { added } = await engine.api.add({ inputs: [talk], to: ['es'], outDir: out, send: 'file' });
      await engine.run(quickRun(2));
      const [job] = (await allJobs(engine.api)).filter((j) => added.includes(j.id));
      expect(job?.state).toBe('completed');
      const dub = sb.state.dubs.get(job?.remoteId ?? '');
      expect((await readFile(dub?.uploadPath ?? '')).equals(await readFile(talk))).toBe(true);
      const video = job?.outputs.find((o) => o.type === 'translated_mp4');
      const served = await readFile(dub?.artifacts?.translated_mp4?.path ?? '');
      expect((await readFile(video?.path ?? '')).equals(served)).toBe(true);
    } finally {
      await engine.close();
    }
  });
});
