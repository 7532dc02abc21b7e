/**
 * The engine's side of the overhead figure, in a process that runs nothing else: batches of jobs through
 * the bench sandbox (its own process, a near-zero pipeline), each when the parent says (see turns.ts), from
 * add to the last download. The bare client takes its turns in a process of its own (bare-child.ts).
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { openDubdesk, type DubdeskHost } from '../../electron/engine/index';
import { toolHostPid } from '../../electron/media-tools/tool-host';
import { benchMedia, type BenchMediaArgs } from './overhead-media';
import { serveTurns } from './turns';

/**
 * The CPU time (ms) the engine's tool host has spent, from /proc (Linux; 0 elsewhere, or before it started):
 * the fork and exec of each QC's ffmpeg, which it does for the engine. Printed beside the figure.
 */
function toolHostCpuMs(): number {
  const pid = toolHostPid();
  if (pid === undefined) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    // utime and stime, fields 14 and 15 of the whole line, in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

const args = JSON.parse(process.argv[2] ?? '{}') as BenchMediaArgs & { baseUrl: string; apiKey: string };
const media = benchMedia(args, 'engine');
let host: DubdeskHost | null = null;

serveTurns({
  async prepare() {
    host = openDubdesk({
      home: join(media.work, 'home'),
      face: 'cli',
      service: { baseUrl: args.baseUrl, apiKey: args.apiKey },
    });
  },
  async run(b) {
    if (!host) throw new Error('the engine is not open');
    const host0 = toolHostCpuMs();
    const added = await host.api.add({
      inputs: [media.folder(b)],
      to: ['es'],
      outDir: media.outDir(b),
      // What the bare client does: the file as it is (an MP3's sound alone goes in an M4A made by ffmpeg).
      send: 'file',
      force: true,
    });
    const outcome = await host.run({ untilDone: true, concurrency: 4, pollIntervalMs: 500 });
    const done = (await host.api.totals()).counts.completed;
    if (outcome !== 'done' || done !== added.added.length * (b + 1) || added.added.length !== args.jobs)
      throw new Error(`batch ${b}: ${outcome}, ${done} completed of ${added.added.length} added`);
    return { toolHostMs: toolHostCpuMs() - host0 };
  },
  async close() {
    await host?.close();
    rmSync(media.work, { recursive: true, force: true });
  },
});
