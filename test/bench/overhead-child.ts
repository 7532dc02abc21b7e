/**
 * Batches of jobs through the bench sandbox (its own process, a near-zero pipeline) by one engine alone in
 * this process; prints the CPU time this process spent on each batch, from add to the last download.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDubdesk } from '../../electron/engine/index';
import { toolHostPid } from '../../electron/media-tools/tool-host';
import { bareJobs } from './bare-client';

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

const { baseUrl, apiKey, source, jobs, batches, root } = JSON.parse(process.argv[2] ?? '{}') as {
  baseUrl: string;
  apiKey: string;
  source: string;
  jobs: number;
  batches: number;
  /** Where the home, sources and outputs go (default: the system's temporary folder). */
  root?: string;
};
const work = mkdtempSync(join(root ?? tmpdir(), 'dubdesk-bench-overhead-'));
const host = openDubdesk({ home: join(work, 'home'), face: 'cli', service: { baseUrl, apiKey } });
const clip = readFileSync(source);
const perBatch: { cpuMs: number; userMs: number; wallMs: number; toolHostMs: number }[] = [];
/** The same work by a bare client (see bare-client.ts), a batch after each of the engine's. */
const bare: { cpuMs: number; userMs: number }[] = [];
/** `jobs` files in a new folder, each its own content (an ID3v1 tag with its number), as a user's are. */
const makeMedia = (name: string) => {
  const media = join(work, name);
  mkdirSync(media);
  for (let i = 0; i < jobs; i++) {
    const tag = Buffer.alloc(128);
    tag.write(`TAGoverhead ${name}-${i}`, 0, 'latin1');
    writeFileSync(join(media, `o-${i}.mp3`), Buffer.concat([clip, tag]));
  }
  return media;
};
try {
  for (let b = 0; b < batches; b++) {
    // Byte copies of one file would be dubbed once and linked: the figure would measure copies, not dubs.
    const media = makeMedia(`media-${b}`);
    const cpu0 = process.cpuUsage();
    const host0 = toolHostCpuMs();
    const t0 = performance.now();
    const added = await host.api.add({
      inputs: [media],
      to: ['es'],
      outDir: join(work, `out-${b}`),
      // What the bare client does: the file as it is (an MP3's sound alone goes in an M4A made by ffmpeg).
      send: 'file',
      force: true,
    });
    const outcome = await host.run({ untilDone: true, concurrency: 4, pollIntervalMs: 500 });
    const cpu = process.cpuUsage(cpu0);
    const wallMs = performance.now() - t0;
    const done = (await host.api.totals()).counts.completed;
    if (outcome !== 'done' || done !== added.added.length * (b + 1))
      throw new Error(`batch ${b}: ${outcome}, ${done} completed`);
    const toolHostMs = toolHostCpuMs() - host0;
    perBatch.push({ cpuMs: (cpu.user + cpu.system) / 1000, userMs: cpu.user / 1000, wallMs, toolHostMs });

    const bareMedia = makeMedia(`bare-${b}`);
    const files = Array.from({ length: jobs }, (_, i) => join(bareMedia, `o-${i}.mp3`));
    const outDir = join(work, `bare-out-${b}`);
    mkdirSync(outDir);
    const bare0 = process.cpuUsage();
    await bareJobs({ baseUrl, apiKey, files, lang: 'es', outDir, concurrency: 4 });
    const bareCpu = process.cpuUsage(bare0);
    bare.push({ cpuMs: (bareCpu.user + bareCpu.system) / 1000, userMs: bareCpu.user / 1000 });
  }
} finally {
  await host.close();
  rmSync(work, { recursive: true, force: true });
}
process.stdout.write(`${JSON.stringify({ jobs, perBatch, bare })}\n`);
