/**
 * 2,000 real files x 5 languages through the contract's `add` (probing included), the longest event-loop
 * block meanwhile, and a fresh process opening the resulting 10,000-job home to answer the first page.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { openDubdesk } from '../../electron/engine/index';
import { audioMp3, videoMp4 } from '../helpers/media';
import { runChild, startChild } from './child';
import { median, ratioOf, round, type Figure } from './figures';
import { API_KEY, benchSandbox } from './sandbox';

const FILES = 2000;
const LANGS = ['es', 'fr', 'de', 'it', 'pt'];
const RUNS = 3;

/**
 * Each file its own content, as a user's are: byte copies of two clips were 2 sources to dub and 9,990
 * copies of them, and the check that each dub is not paid for already never found work to do. An MP3 gets
 * an ID3v1 tag with its number, an MP4 a `free` box: both are still the media they were.
 */
function makeFiles(dir: string): string {
  const media = join(dir, 'media');
  mkdirSync(media, { recursive: true });
  const kinds = [
    [readFileSync(videoMp4(3)), 'mp4'],
    [readFileSync(audioMp3(2.5)), 'mp3'],
  ] as const;
  for (let i = 0; i < FILES; i++) {
    const [clip, ext] = kinds[i % kinds.length] ?? kinds[0];
    const tail = Buffer.alloc(128);
    if (ext === 'mp3') tail.write(`TAGclip ${i}`, 0, 'latin1');
    else {
      tail.writeUInt32BE(tail.length, 0);
      tail.write(`freeclip ${i}`, 4, 'latin1');
    }
    writeFileSync(join(media, `clip-${String(i).padStart(4, '0')}.${ext}`), Buffer.concat([clip, tail]));
  }
  return media;
}

/** Where the section's wall time goes, said on stderr: the figures are a small part of it. */
class Took {
  private readonly parts = new Map<string, number>();
  async time<T>(part: string, work: () => T | Promise<T>): Promise<T> {
    const t0 = performance.now();
    try {
      return await work();
    } finally {
      this.parts.set(part, (this.parts.get(part) ?? 0) + performance.now() - t0);
    }
  }
  toString(): string {
    return [...this.parts].map(([part, ms]) => `${part} ${(ms / 1000).toFixed(1)} s`).join(', ');
  }
}

export async function enqueueFigures(work: string): Promise<Figure[]> {
  const took = new Took();
  const media = await took.time('2,000 files written', () => makeFiles(work));
  const sb = await took.time('sandbox', () =>
    benchSandbox({ pipelineSeconds: 100_000, balance: 1e9, ffmpeg: false }),
  );
  const addMs: number[] = [];
  const stallMs: number[] = [];
  const idleMs: number[] = [];
  const cpuMs: number[] = [];
  let home = '';
  try {
    for (let i = 0; i < RUNS; i++) {
      home = mkdtempSync(join(work, 'home-'));
      const host = await took.time('engine opened', () =>
        openDubdesk({ home, face: 'cli', service: { baseUrl: sb.baseUrl, apiKey: API_KEY } }),
      );
      const idle = await took.time('idle child', () => startChild<{ maxMs: number }>('./idle-child.ts'));
      const loop = monitorEventLoopDelay({ resolution: 1 });
      loop.enable();
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      const r = await took.time('adds', () =>
        host.api.add({ inputs: [media], to: LANGS, outDir: join(work, 'out'), force: true }),
      );
      addMs.push(performance.now() - t0);
      const cpu = process.cpuUsage(cpu0);
      cpuMs.push((cpu.user + cpu.system) / 1000);
      // The first pages a face shows right after, as part of the same run.
      await took.time('first pages', async () => {
        for (let offset = 0; offset < 500; offset += 100) await host.api.listSources({ offset, limit: 100 });
      });
      loop.disable();
      stallMs.push(loop.max / 1e6);
      idleMs.push((await idle.finish()).maxMs);
      if (r.added.length !== FILES * LANGS.length) throw new Error(`added ${r.added.length} jobs`);
      // Every job a dub of its own (at least a credit each), none a copy of another's.
      if (r.credits < FILES * LANGS.length) throw new Error(`${r.credits} credits: copies, not dubs`);
      await took.time('engine closed (its backup)', () => host.close());
    }
  } finally {
    await sb.stop();
  }
  const starts: { openListMs: number; importMs: number }[] = [];
  for (let i = 0; i < 5; i++)
    starts.push(await took.time('5 start children', () => runChild('./start-child.ts', { home })));
  process.stderr.write(`bench: enqueue's time: ${String(took)}\n`);
  const add = median(addMs);
  const stall = median(stallMs);
  const start = median(starts.map((s) => s.openListMs));
  return [
    {
      name: `enqueue 2,000 files x 5 languages (add; ${round(median(cpuMs), 0)} ms of CPU)`,
      measured: round(add, 0),
      unit: 'ms',
      target: '< 1000',
      reference: 'target 1000 ms',
      ratio: ratioOf(add, 1000),
      pass: add < 1000,
    },
    {
      name: 'engine start: 10,000-job home, first listSources page',
      measured: round(start, 0),
      unit: 'ms',
      target: '< 300',
      reference: `target 300 ms (module load before it: ${round(median(starts.map((s) => s.importMs)), 0)} ms)`,
      ratio: ratioOf(start, 300),
      pass: start < 300,
    },
    {
      name: 'main-thread stalls: longest event-loop block during the 10,000-job add',
      measured: round(stall, 0),
      unit: 'ms',
      target: '< 50',
      reference: `an idle process meanwhile: ${round(median(idleMs), 0)} ms (the machine's own delays)`,
      ratio: ratioOf(stall, 50),
      pass: stall < 50,
    },
  ];
}
