/**
 * A phone's video, shot turned, packaged as MKV: the package is refused (Matroska as ffmpeg writes it cannot
 * say the picture is turned), in the window's words, without the terminal's command; and the window makes it
 * as MP4 from the job panel, as a person would, with no terminal.
 */
import { describe, it } from 'vitest';
import { addButtonShown, PATIENT, screenshot } from '../helpers/browser-app';
import { openedApp } from '../helpers/opened-app';
import { videoTurnedWithChapters } from '../helpers/media';
import { shipped } from '../helpers/toolsets';

describe('Package now in another format, from the window', () => {
  const e2e = openedApp({ sandbox: { pipelineSeconds: 1 }, ready: addButtonShown });

  it('a refused MKV package says what to do in words, and Package now as MP4 makes it', async () => {
    const turned = videoTurnedWithChapters(4, 'vacances été.mp4', (await shipped()).ffmpeg);
    await e2e.app.host.api.add({ inputs: [turned], to: ['es'], package: 'mkv' });
    const { page } = e2e.view;
    const row = page.getByRole('row', { name: /vacances été\.mp4/ });
    // The row is the source: its words do not spend the row's one line on the source's whole path.
    const refused = row.getByText(
      /^Package failed: the file cannot be packaged as MKV: its picture is turned 90°.*; package it as MP4 instead$/,
    );
    await refused.waitFor({ ...PATIENT, timeout: 60_000 });

    await row.getByRole('button', { name: /^Spanish, es: done/ }).click();
    const panel = page.getByRole('complementary');
    await panel.getByLabel('Package as').selectOption('mp4');
    await screenshot(page, 'package-now-format');
    await panel.getByRole('button', { name: 'Package now' }).click();
    await page.getByText(/the MP4 with every finished language is being made/).waitFor(PATIENT);
    await row.getByText(/^Package: vacances été\.multi\.mp4 \(original, Spanish\)/).waitFor(PATIENT);
  });
});
