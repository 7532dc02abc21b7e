import { beforeAll, describe, expect, it } from 'vitest';
import { finishedFitted, finishedLine } from '../../electron/cli/progress';
import { fits } from '../../electron/cli/fit';
import { jobView as job } from '../helpers/job-view';
import { loadTextWidth } from '../../electron/cli/text-width';

// The CLI loads its text layout before a command's action runs; here, before the tests.
beforeAll(loadTextWidth);

describe('a finished job on one terminal line', () => {
  it('names its files where they fit', () => {
    expect(finishedFitted(job('a.mp4'), 80)).toBe('✓ #7 a.mp4 → es: a.es.mp4, a.es.vtt');
  });

  it('counts them by kind where they do not, keeping the source name whole', () => {
    const line = finishedFitted(job('Interview 01.mp4'), 50);
    expect(line).toBe('✓ #7 Interview 01.mp4 → es: 2 files (mp4, vtt)');
    expect(fits(line, 50)).toBe(true);
  });

  it('still fits a very narrow window', () => {
    const line = finishedFitted(job('A rather long interview name, take 12.mp4'), 30);
    expect(fits(line, 30)).toBe(true);
    expect(line.startsWith('✓ #7 ')).toBe(true);
  });

  it('keeps the end of a long name, where its number is, and the job number', () => {
    const name = (n: number) => `a very long name for a narrow terminal, take ${n}.mp4`;
    const lines = [1, 2].map((n) => finishedFitted(job(name(n), { id: n, state: 'failed' }), 60));
    expect(lines[0]).toMatch(/^✗ #1 a very[^…]*…[^…]*take 1\.mp4 → es/);
    expect(lines[1]).toMatch(/^✗ #2 a very[^…]*…[^…]*take 2\.mp4 → es/);
    for (const line of lines) expect(fits(line, 60)).toBe(true);
  });

  it('keeps the start of a long name too, where a number may lead it, in a 40-column pane', () => {
    const name = (n: number) => `${String(n).padStart(3, '0')} Témoignage du public, salle B.mp4`;
    const lines = [1, 2].map((n) => finishedFitted(job(name(n), { id: n, state: 'failed' }), 40));
    expect(lines[0]).toMatch(/^✗ #1 001[^…]*…[^…]*\.mp4 → es/);
    expect(lines[1]).toMatch(/^✗ #2 002[^…]*…[^…]*\.mp4 → es/);
    for (const line of lines) expect(fits(line, 40)).toBe(true);
  });
});

describe("a finished job's files, where two output types are one file", () => {
  // Identical content is kept once: the service's `original_mp4` of an MP4 upload may be its `original`.
  const shared = job('clip.mp4', {
    outputs: [
      { type: 'translated_mp4', path: '/out/clip.es.mp4', bytes: 1 },
      { type: 'original', path: '/out/clip.original.mp4', bytes: 1 },
      { type: 'original_mp4', path: '/out/clip.original.mp4', bytes: 1 },
    ],
  });

  it('names each file once', () => {
    expect(finishedFitted(shared, 120)).toBe('✓ #7 clip.mp4 → es: clip.es.mp4, clip.original.mp4');
    expect(finishedLine(shared)).toBe('✓ #7 clip.mp4 → es: /out/clip.es.mp4, /out/clip.original.mp4');
  });

  it('counts each file once', () => {
    expect(finishedFitted(shared, 40)).toBe('✓ #7 clip.mp4 → es: 2 files (mp4, mp4)');
  });
});
