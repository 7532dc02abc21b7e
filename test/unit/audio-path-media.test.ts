import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractAudio } from '../../electron/engine/media/ffmpeg/extract';
import { languageTag } from '../../electron/engine/media/ffmpeg/language-tag';
import { bundledPackages, locateMediaTools, unpacked } from '../../electron/media-tools/locate';
import { rebuildVideo, rebuiltContainer } from '../../electron/engine/media/ffmpeg/rebuild';
import { MediaToolError, runTool } from '../../electron/media-tools/run';
import { probeStreams } from '../../electron/engine/media/ffmpeg/streams';
import { tempDir } from '../helpers/temp-dir';
import {
  audioMd5,
  dubbedMp3,
  dubbedVoice,
  errorLoudness,
  ffprobeJson,
  loudness,
  videoMd5,
  videoMp3Sound,
  videoMp4,
  videoTurnedWithChapters,
  videoChaptersPastEnd,
  videoWebm,
} from '../helpers/media';
import { shipped, TOOLSETS } from '../helpers/toolsets';

describe('finding ffmpeg: shipped, then DUBDESK_FFMPEG, then the PATH', () => {
  it('takes the one shipped with Dubdesk first, without the shell PATH', async () => {
    const { tools } = await locateMediaTools({ env: {} });
    expect(tools?.from).toBe('bundled');
    expect(tools?.ffmpeg).toContain(join('node_modules', '@ffmpeg-installer'));
    expect(tools?.version).toMatch(/^ffmpeg version /);
  });

  it('then DUBDESK_FFMPEG, its ffprobe beside it', async () => {
    const { tools } = await locateMediaTools({ from: [], env: { DUBDESK_FFMPEG: '/usr/bin/ffmpeg' } });
    expect(tools).toMatchObject({
      from: 'DUBDESK_FFMPEG',
      ffmpeg: '/usr/bin/ffmpeg',
      ffprobe: '/usr/bin/ffprobe',
    });
  });

  it('says why a DUBDESK_FFMPEG that is not ffmpeg was passed over, and goes on to the PATH', async () => {
    const dir = tempDir('not-ffmpeg');
    const search = await locateMediaTools({
      from: [],
      env: { DUBDESK_FFMPEG: '/bin/echo', DUBDESK_FFPROBE: '/bin/echo', PATH: process.env.PATH ?? '' },
    });
    expect(search.tools?.from).toBe('PATH');
    expect(search.problems.join('\n')).toMatch(/\/bin\/echo is not ffmpeg/);
    const none = await locateMediaTools({
      from: [dir],
      env: { DUBDESK_FFMPEG: join(dir, 'ffmpeg'), PATH: dir },
    });
    expect(none.tools).toBeNull();
    expect(none.problems.join('\n')).toMatch(/missing or not executable/);
  });

  it('maps each target to its package, Windows on Arm to the x64 build, and reads binaries beside the asar', () => {
    expect(bundledPackages('darwin', 'arm64')).toEqual({
      ffmpeg: '@ffmpeg-installer/darwin-arm64',
      ffprobe: '@ffprobe-installer/darwin-arm64',
    });
    expect(bundledPackages('win32', 'arm64').ffmpeg).toBe('@ffmpeg-installer/win32-x64');
    const inAsar = join('/opt', 'Dubdesk', 'resources', 'app.asar', 'node_modules', 'x', 'ffmpeg');
    expect(unpacked(inAsar)).toBe(
      join('/opt', 'Dubdesk', 'resources', 'app.asar.unpacked', 'node_modules', 'x', 'ffmpeg'),
    );
  });

  it('names the language as players read it', () => {
    expect(languageTag('es')).toBe('spa');
    expect(languageTag('fr')).toBe('fre');
    expect(languageTag('zh')).toBe('chi');
    expect(languageTag('xx')).toBe('und');
  });
});

describe.each(TOOLSETS)('the audio path with %s', (_name, toolsOf) => {
  it('copies AAC as it is (v2: an M4A; legacy: an audio-only MP4), and nothing but the sound', async () => {
    const tools = await toolsOf();
    const dir = tempDir('extract');
    const source = videoMp4(4, 'extract-aac.mp4');
    const streams = await probeStreams(tools.ffprobe, source);
    const v2 = await extractAudio(tools, source, streams, 'v2', join(dir, 'v2'), null);
    expect(v2.path.endsWith('.m4a')).toBe(true);
    expect(v2.plan).toMatchObject({ copy: true, mime: 'audio/mp4' });
    expect(audioMd5(v2.path)).toBe(audioMd5(source));
    const got = ffprobeJson(v2.path);
    expect(got.streams.map((s) => s.codec_type)).toEqual(['audio']);
    // The file says it lasts what its sound lasts: the service bills whole seconds of what it measures.
    const sound = ffprobeJson(source).streams.find((s) => s.codec_type === 'audio');
    expect(Number(got.format.duration)).toBeCloseTo(Number(sound?.duration), 3);
    const legacy = await extractAudio(tools, source, streams, 'legacy', join(dir, 'legacy'), null);
    expect(legacy.plan).toMatchObject({ copy: true, mime: 'video/mp4', ext: 'mp4' });
    expect(ffprobeJson(legacy.path).format.format_name).toMatch(/mp4/);
    expect(await readdir(dir)).toEqual(['legacy.mp4', 'v2.m4a']); // no part left
  });

  it('copies MP3 for v2 and v1 (into an M4A), and makes AAC of it for legacy and of Opus for everyone', async () => {
    const tools = await toolsOf();
    const dir = tempDir('extract-other');
    const mp3Sound = videoMp3Sound(3);
    const streams = await probeStreams(tools.ffprobe, mp3Sound);
    const v1 = await extractAudio(tools, mp3Sound, streams, 'v1', join(dir, 'v1'), null);
    expect(v1.plan).toMatchObject({ copy: true, mime: 'audio/mp4', ext: 'm4a' });
    expect(audioMd5(v1.path)).toBe(audioMd5(mp3Sound));
    const legacy = await extractAudio(tools, mp3Sound, streams, 'legacy', join(dir, 'legacy'), null);
    expect(legacy.plan.copy).toBe(false);
    expect(ffprobeJson(legacy.path).streams[0]?.codec_name).toBe('aac');
    const webm = videoWebm(3);
    const opus = await extractAudio(
      tools,
      webm,
      await probeStreams(tools.ffprobe, webm),
      'v2',
      join(dir, 'opus'),
      null,
    );
    expect(opus.plan).toMatchObject({ copy: false, mime: 'audio/mp4' });
    const made = ffprobeJson(opus.path);
    expect(made.streams.map((s) => s.codec_name)).toEqual(['aac']);
    expect(Number(made.format.duration)).toBeCloseTo(3, 0);
  });

  it('rebuilds the video: the picture bit for bit, one AAC stream tagged spa of the source length, chapters and rotation kept', async () => {
    const tools = await toolsOf();
    const shippedTools = await shipped();
    const dir = tempDir('rebuild');
    const source = videoTurnedWithChapters(6, 'phone clip é.mp4', shippedTools.ffmpeg);
    const streams = await probeStreams(tools.ffprobe, source);
    expect(streams.video?.rotation).not.toBeNull();
    for (const [dubbed, how] of [
      [5.2, 'padded'],
      [6.9, 'cut'],
      [6, 'same'],
    ] as const) {
      const out = join(dir, `phone clip é.es ${how}.mp4`);
      const fit = await rebuildVideo(tools, {
        source,
        sourceStreams: streams,
        dubbedAudio: dubbedMp3(dubbed),
        dubbedSeconds: (await probeStreams(tools.ffprobe, dubbedMp3(dubbed))).durationSeconds ?? 0,
        dubbedChannels: null,
        destLang: 'es',
        out,
      });
      expect(fit.how).toBe(how);
      expect(videoMd5(out)).toBe(videoMd5(source));
      const got = ffprobeJson(out);
      const audio = got.streams.filter((s) => s.codec_type === 'audio');
      expect(audio).toHaveLength(1);
      expect(audio[0]).toMatchObject({
        codec_name: 'aac',
        tags: expect.objectContaining({ language: 'spa' }),
      });
      expect(Math.abs(Number(audio[0]?.duration) - 6)).toBeLessThan(0.05);
      expect(got.chapters).toHaveLength(2);
      const video = got.streams.find((s) => s.codec_type === 'video');
      expect(Math.abs(video?.side_data_list?.find((d) => d.rotation !== undefined)?.rotation ?? 0)).toBe(90);
    }
    expect((await readdir(dir)).filter((f) => f.endsWith('.part'))).toEqual([]);
  });

  it('fits the dub to the picture, not to chapters that run past the end of the file', async () => {
    const tools = await toolsOf();
    const dir = tempDir('rebuild-chapters');
    // The container says 12 s (its last chapter ends there), the picture and the sound last 6 s.
    const source = videoChaptersPastEnd(6, 12, 'générique.mp4');
    const streams = await probeStreams(tools.ffprobe, source);
    const out = join(dir, 'générique.es.mp4');
    const fit = await rebuildVideo(tools, {
      source,
      sourceStreams: streams,
      dubbedAudio: dubbedMp3(6),
      dubbedSeconds: (await probeStreams(tools.ffprobe, dubbedMp3(6))).durationSeconds ?? 0,
      dubbedChannels: null,
      destLang: 'es',
      out,
    });
    expect(fit).toMatchObject({ how: 'same', sourceSeconds: 6 });
    const made = ffprobeJson(out).streams.filter((s) => ['video', 'audio'].includes(s.codec_type));
    expect(made.map((s) => [s.codec_type, Math.round(Number(s.duration) * 10) / 10])).toEqual([
      ['video', 6],
      ['audio', 6],
    ]);
  });

  it("keeps a dubbed voice's loudness, and adds less error than the service's own MP3 carries", async () => {
    const tools = await toolsOf();
    const voice = dubbedVoice(8);
    const source = videoMp4(8, 'talk for the voice.mp4');
    const out = join(tempDir('rebuild-voice'), 'talk.es.mp4');
    const dubbed = await probeStreams(tools.ffprobe, voice.mp3);
    await rebuildVideo(tools, {
      source,
      sourceStreams: await probeStreams(tools.ffprobe, source),
      dubbedAudio: voice.mp3,
      dubbedSeconds: dubbed.durationSeconds ?? 0,
      dubbedChannels: dubbed.audio?.channels ?? null,
      destLang: 'es',
      out,
    });
    expect(Math.abs(loudness(out) - loudness(voice.mp3))).toBeLessThanOrEqual(0.5);
    // What the AAC encode got wrong is quieter than what the service's 128 kbit/s MP3 already got wrong.
    expect(errorLoudness(voice.mp3, out)).toBeLessThan(errorLoudness(voice.wav, voice.mp3));
  });

  it('puts a picture MP4 cannot hold into Matroska', async () => {
    const tools = await toolsOf();
    const webm = videoWebm(2, 'vp8.webm');
    const streams = await probeStreams(tools.ffprobe, webm);
    expect(rebuiltContainer(streams)).toBe('mkv');
    const out = join(tempDir('rebuild-mkv'), 'vp8.fr.mkv');
    await rebuildVideo(tools, {
      source: webm,
      sourceStreams: streams,
      dubbedAudio: dubbedMp3(2),
      dubbedSeconds: 2,
      dubbedChannels: null,
      destLang: 'fr',
      out,
    });
    expect(videoMd5(out)).toBe(videoMd5(webm));
    expect(ffprobeJson(out).streams.find((s) => s.codec_type === 'audio')?.tags?.language).toBe('fre');
  });
});

describe('ffmpeg under the job', () => {
  it('is killed with the job, and a stuck one by its timeout; its stderr is kept', async () => {
    const tools = await shipped();
    const endless = ['-nostdin', '-v', 'error', '-re', '-f', 'lavfi', '-i', 'sine', '-f', 'null', '-'];
    const job = new AbortController();
    const running = runTool(tools.ffmpeg, endless, { timeoutMs: 600_000, signal: job.signal });
    job.abort();
    await expect(running).rejects.toMatchObject({ why: 'stopped' });
    await expect(runTool(tools.ffmpeg, endless, { timeoutMs: 300 })).rejects.toMatchObject({
      why: 'timed-out',
    });
    const bad = await runTool(tools.ffmpeg, ['-v', 'error', '-i', join(tempDir('none'), 'missing.mp4')], {
      timeoutMs: 30_000,
    }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(MediaToolError);
    expect((bad as MediaToolError).stderr).toMatch(/No such file/);
  });

  it('leaves no part when extraction is stopped half-way', async () => {
    const tools = await shipped();
    const dir = tempDir('extract-stop');
    const source = videoWebm(20, 'long.webm');
    const streams = await probeStreams(tools.ffprobe, source);
    const job = new AbortController();
    const extracting = extractAudio(tools, source, streams, 'v2', join(dir, 'audio'), null, job.signal);
    job.abort();
    await expect(extracting).rejects.toBeInstanceOf(MediaToolError);
    expect(await readdir(dir)).toEqual([]);
    expect(existsSync(join(dir, 'audio.m4a'))).toBe(false);
    await stat(source);
  });
});

describe("doctor's ffmpeg line", () => {
  it('passes without one, saying that whole files are sent and how to send only the sound', async () => {
    const { ffmpegCheck } = await import('../../electron/engine/doctor/media-tools');
    const dir = tempDir('no-ffmpeg');
    const check = await ffmpegCheck(locateMediaTools({ from: [dir], env: { PATH: dir } }));
    expect(check).toMatchObject({ ok: true, detail: 'none found: whole files are sent' });
    expect(check.note).toMatch(/DUBDESK_FFMPEG/);
    const found = await ffmpegCheck(locateMediaTools({ from: [], env: { PATH: process.env.PATH } }));
    expect(found.detail).toMatch(/^ffmpeg version .*, from the PATH: \/usr\/bin\/ffmpeg$/);
  });
});
