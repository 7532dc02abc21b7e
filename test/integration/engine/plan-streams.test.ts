/**
 * The add decides what each video sends, and the length the service bills, from its streams. It reads them
 * in this process for MP4/MOV and Matroska/WebM (media/in-process/) and asks ffprobe only where that cannot
 * tell: on real files made by ffmpeg, the two must give the same numbers for everything the plan reads,
 * and so the same plan.
 */
import { describe, expect, it } from 'vitest';
import { locateMediaTools } from '../../../electron/media-tools/locate';
import { planSends, sendChoiceFor } from '../../../electron/engine/app/batches/send-plan';
import { audioPlan } from '../../../electron/engine/media/ffmpeg/audio-plan';
import { mp4Refusal } from '../../../electron/engine/media/ffmpeg/package';
import {
  joinedFromPieces,
  probeStreams,
  soundSeconds,
  type PlanStreams,
} from '../../../electron/engine/media/ffmpeg/streams';
import { planStreamsInProcess } from '../../../electron/engine/media/in-process/plan-streams';
import { probeFile, type ProbedFile } from '../../../electron/engine/media/probe';
import { API_GENERATIONS } from '../../../shared/contract/jobs';
import { planMedia } from '../../helpers/plan-media';

/**
 * Every number the plan reads of a file's streams, as it reads them: whether there is a picture (and whether
 * an MP4 holds it), whether there is a sound, how long it and the file last; per generation, whether the
 * sound is copied (then its bit rate makes the estimate) or made AAC (then from how many channels, at most 2).
 */
function asThePlanReads(s: PlanStreams | null) {
  if (!s) return null;
  const sound = s.audio;
  return {
    video: s.video?.codec ?? null,
    mp4Refusal: mp4Refusal(s),
    audio: sound && {
      codec: sound.codec,
      durationSeconds: sound.durationSeconds,
      extraFrames: sound.extraFrames,
      joinedFromPieces: joinedFromPieces(sound),
      sent: API_GENERATIONS.map((api) => {
        const plan = audioPlan(sound, api);
        return plan.copy ? { api, copied: sound.bitRate } : { api, madeAac: plan.codecArgs.join(' ') };
      }),
    },
    durationSeconds: s.durationSeconds,
    soundSeconds: soundSeconds(s),
  };
}

const choices = (f: ProbedFile, s: PlanStreams | null) =>
  API_GENERATIONS.flatMap((api) =>
    (['audio', 'file'] as const).map((send) => sendChoiceFor(f, s, send, api)),
  );

/** The ffprobe the plan itself asks: the one shipped with Dubdesk, found as the app finds it. */
async function ffprobe(): Promise<string> {
  const { tools } = await locateMediaTools();
  if (!tools) throw new Error('no ffprobe: the shipped one (@ffprobe-installer) is a dependency');
  return tools.ffprobe;
}

describe('the streams the plan reads, in this process and by ffprobe', () => {
  const media = planMedia();

  it.each(media.map((m) => [m.name, m] as const))('%s', async (_name, m) => {
    const probed = await probeFile(m.path, { lengthUnknown: 'allow' });
    const inProcess = await planStreamsInProcess(m.path, probed.mime);
    const byFfprobe = await probeStreams(await ffprobe(), m.path).catch(() => null);
    expect(inProcess === null ? 'ffprobe' : 'in-process', `who answers for ${m.name} (${probed.mime})`).toBe(
      m.reader,
    );
    // Probing an MP4 reads them through its own open file: the same, or none where the path has none.
    const { streams } = await probeFile(m.path, { lengthUnknown: 'allow', streams: true });
    if (streams !== undefined) expect(streams, 'read while probing').toEqual(inProcess);
    else expect(probed.kind === 'audio' || /matroska|webm/.test(probed.mime), probed.mime).toBe(true);
    if (!inProcess) return;
    expect(asThePlanReads(inProcess)).toEqual(asThePlanReads(byFfprobe));
    expect(choices(probed, inProcess)).toEqual(choices(probed, byFfprobe));
  });

  it.each([
    ['read by the plan', false],
    ['read while probing', true],
  ])('plans every file of the set as ffprobe alone would have, MP4 streams %s', async (_how, streams) => {
    const files = await Promise.all(media.map((m) => probeFile(m.path, { lengthUnknown: 'allow', streams })));
    const videos = files.filter((f) => f.kind === 'video');
    for (const api of API_GENERATIONS) {
      const plan = await planSends(files, { send: 'audio', api });
      const byFfprobe = await Promise.all(
        videos.map(
          async (f) =>
            [
              f.path,
              sendChoiceFor(f, await probeStreams(await ffprobe(), f.path).catch(() => null), 'audio', api),
            ] as const,
        ),
      );
      // The plan also lists a file's tracks where it has several (for choosing one): not a sending decision.
      const decided = (f: ProbedFile) => {
        const { tracks: _tracks, ...choice } = plan.bySource.get(f.path) ?? { tracks: undefined };
        return choice;
      };
      expect(videos.map((f) => [f.path, decided(f)])).toEqual(byFfprobe);
    }
  });
});
