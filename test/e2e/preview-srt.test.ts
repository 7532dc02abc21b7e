/**
 * A dub whose subtitles were asked as SubRip only (`--subtitles srt`): the WebVTT they came from is not
 * kept, and the preview must still show them (serve turns the .srt into WebVTT on the way).
 */
import { describe, expect, it } from 'vitest';
import { addButtonShown, PATIENT } from '../helpers/browser-app';
import { openedApp } from '../helpers/opened-app';
import { allJobs } from '../helpers/engine';
import { videoMp4 } from '../helpers/media';

/** HTMLTrackElement.LOADED */
const LOADED = 2;

describe('the preview of a dub with SubRip subtitles only', () => {
  const e2e = openedApp({ sandbox: { pipelineSeconds: 1 }, ready: addButtonShown });

  it('plays the dub with its subtitles', async () => {
    const { page } = e2e.view;
    const { api } = e2e.app.host;
    await api.add({ inputs: [videoMp4(3, 'srt only.mp4')], to: ['es'], subtitles: ['srt'] });
    await expect
      .poll(async () => (await allJobs(api)).map((j) => [j.state, j.outputs.map((o) => o.type).sort()]), {
        timeout: 60_000,
        interval: 250,
      })
      .toEqual([['completed', ['translated_mp4', 'translated_subtitle_srt']]]);
    await page
      .getByRole('row', { name: /srt only\.mp4/ })
      .getByRole('button', { name: /^Spanish, es: done/ })
      .click();
    const panel = page.getByRole('complementary', { name: /srt only\.mp4/ });
    const video = panel.locator('video');
    await video.waitFor();
    await expect
      .poll(() => panel.locator('track').evaluate((t: HTMLTrackElement) => t.readyState), PATIENT)
      .toBe(LOADED);
    expect(await video.evaluate((v: HTMLVideoElement) => v.textTracks[0]?.cues?.length ?? 0)).toBeGreaterThan(
      0,
    );
  });
});
