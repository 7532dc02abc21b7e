import { describe, expect, it } from 'vitest';
import { openOrReveal } from '../../../electron/main/face-ipc';

function shell() {
  const calls: string[] = [];
  return {
    calls,
    openPath: async (p: string) => {
      calls.push(`open ${p}`);
      return '';
    },
    showItemInFolder: (p: string) => void calls.push(`show ${p}`),
  };
}

describe('opening a job file from the desktop', () => {
  it('opens media, posters and subtitles, and only shows anything else in its folder', async () => {
    const s = shell();
    for (const p of [
      '/o/clip.es.mp4',
      '/o/clip.es.VTT',
      '/o/clip.poster.jpg',
      '/o/clip.es.exe',
      '/o/clip.es.bat',
    ])
      await openOrReveal(s, p);
    expect(s.calls).toEqual([
      'open /o/clip.es.mp4',
      'open /o/clip.es.VTT',
      'open /o/clip.poster.jpg',
      'show /o/clip.es.exe',
      'show /o/clip.es.bat',
    ]);
  });
});
