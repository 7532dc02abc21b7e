/**
 * "Dub again" in a failed QC's panel is the same dub again: the job's own choices (what it sends, its
 * package and default sound, its subtitle formats, its loudness target, its outputs), not the defaults.
 * Its confirm says what the service charges for that send path, and the service charges exactly that.
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AddRequestInput } from '../../shared/contract/batches';
import { addButtonShown, PATIENT } from '../helpers/browser-app';
import { openedApp } from '../helpers/opened-app';
import { allJobs } from '../helpers/engine';
import { ffprobeJson, videoChaptersPastEnd } from '../helpers/media';
import { tempDir } from '../helpers/temp-dir';

const finished = { ...PATIENT, timeout: 90_000 };

describe('Dub again keeps the job’s own choices', () => {
  const e2e = openedApp({
    sandbox: {
      pipelineSeconds: 1,
      balance: 36_000,
      ffmpeg: true,
      // French comes out 4 s short: its QC fails, and the panel offers to dub it again.
      faults: { badDubs: { fr: ['short'] } },
    },
    ready: addButtonShown,
  });
  // A user's machine: what is not chosen sends the sound alone (the suite's world sends whole files).
  beforeAll(() => vi.stubEnv('DUBDESK_SEND', 'audio'));
  afterAll(() => vi.unstubAllEnvs());

  it('sent whole, packaged, with SubRip and the web target: dubbed again the same, billed as confirmed', async () => {
    const { api } = e2e.app.host;
    // Chapters past the picture: the whole file is billed its 16 s, its sound alone would be 8 s.
    const source = videoChaptersPastEnd(8, 16, 'entretien à refaire.mp4');
    const outDir = tempDir('dub again out ');
    const choices: Partial<AddRequestInput> = {
      send: 'file',
      package: 'mkv',
      subtitles: ['vtt', 'srt'],
      loudness: 'web',
      defaultAudio: 'fr',
      outputs: ['translated_mp4', 'translated_subtitle', 'translated_mp3'],
    };
    const { added } = await api.add({ inputs: [source], to: ['fr'], outDir, ...choices });
    const [firstId] = added;
    const firstDone = () =>
      allJobs(api).then((jobs) => jobs.find((j) => j.id === firstId && j.qc && !j.delivering));
    await expect.poll(firstDone, finished).toBeTruthy();
    const first = await api.getJob({ id: firstId ?? 0 });
    expect(first).toMatchObject({ send: 'file', qc: { verdict: 'fail', target: { name: 'web' } } });
    const charged = first.creditsCharged ?? 0;
    expect(charged).toBeGreaterThan(8);
    const packaged = join(outDir, 'entretien à refaire.multi.mkv');
    await expect.poll(() => existsSync(packaged), PATIENT).toBe(true);

    const { page } = e2e.view;
    const row = page.getByRole('row', { name: /entretien à refaire\.mp4/ });
    await row.getByRole('button', { name: /^French, fr: done, QC failed/ }).click(PATIENT);
    const panel = page.getByRole('complementary');
    await panel.getByRole('button', { name: 'Dub again…' }).click();
    const dialog = page.getByRole('dialog');
    // What the whole file is billed, as the service billed it the first time: not its sound's length.
    await dialog.getByText(new RegExp(`^The service charges about ${charged} cr again\\.`)).waitFor();
    await dialog.getByRole('button', { name: `Dub again (${charged} credits)` }).click();

    const againDone = () =>
      allJobs(api).then((jobs) => jobs.find((j) => j.id !== firstId && j.qc && !j.delivering));
    await expect.poll(againDone, finished).toBeTruthy();
    const again = (await againDone()) ?? first;
    const detail = await api.getJob({ id: again.id });
    expect(detail).toMatchObject({
      send: 'file',
      outputsWanted: first.outputsWanted,
      outDir: first.outDir,
      sourceLang: first.sourceLang,
      studio: first.studio,
      api: first.api,
      qc: { target: { name: 'web' } },
      creditsCharged: charged,
    });
    // Its SubRip made again beside its WebVTT, and the package made again with it (the old one kept aside).
    const types = detail.outputs.map((o) => o.type);
    expect(types).toEqual(expect.arrayContaining(['translated_subtitle', 'translated_subtitle_srt']));
    expect(existsSync(join(outDir, 'entretien à refaire.fr.srt'))).toBe(true);
    await expect
      .poll(() => {
        const previous = join(dirname(packaged), 'previous');
        return existsSync(previous) && readdirSync(previous).some((n) => n.endsWith('.mkv'));
      }, PATIENT)
      .toBe(true);
    await expect.poll(() => existsSync(packaged), PATIENT).toBe(true);
    const audio = ffprobeJson(packaged).streams.filter((s) => s.codec_type === 'audio');
    const defaults = audio.filter((s) => (s as { disposition?: { default?: number } }).disposition?.default);
    expect(defaults.map((s) => s.tags?.language)).toEqual(['fre']);
  });
});
