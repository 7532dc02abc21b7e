import { accessSync, constants, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { audioMp3 } from '../helpers/media';
import { runChild } from './child';
import { median, ratioOf, round, type Figure } from './figures';
import { API_KEY, benchSandbox } from './sandbox';

const JOBS = 300;
/** The first batch warms the JIT up and is shown apart; the figure is the median of the others. */
const BATCHES = 4;

/** A folder in memory (Linux's /dev/shm), or null where there is none to write to. */
function memoryFolder(): string | null {
  try {
    if (!statSync('/dev/shm').isDirectory()) return null;
    accessSync('/dev/shm', constants.W_OK);
    return '/dev/shm';
  } catch {
    return null;
  }
}

interface Run {
  perJob: number;
  user: number;
  cold: number;
  batches: number;
}

async function run(baseUrl: string, root: string): Promise<Run> {
  const r = await runChild<{ jobs: number; perBatch: { cpuMs: number; userMs: number }[] }>(
    './overhead-child.ts',
    { baseUrl, apiKey: API_KEY, source: audioMp3(1, 'overhead.mp3'), jobs: JOBS, batches: BATCHES, root },
  );
  const [cold, ...warm] = r.perBatch.map((b) => ({ cpu: b.cpuMs / r.jobs, user: b.userMs / r.jobs }));
  if (!cold || warm.length === 0) throw new Error('the overhead child ran no batch');
  return {
    perJob: median(warm.map((b) => b.cpu)),
    user: median(warm.map((b) => b.user)),
    cold: cold.cpu,
    batches: warm.length,
  };
}

/**
 * Engine CPU time per job, measured with `process.cpuUsage()` in a process that runs only the engine, its
 * home and the files it writes in memory. The same run on disk is the reference: there the kernel's cost of
 * making each output file is counted too, and on a journal-less ext4 (this VM's) it depends on the minutes
 * before: a new file skips, one by one, every inode freed in the last 60 s to 6 min (perf: 14% of the
 * process's samples in `__ext4_new_inode` -> `recently_deleted` after a test run), which moved the figure
 * between 2.8 and 6 ms with the engine unchanged.
 */
export async function overheadFigures(): Promise<Figure[]> {
  const sb = await benchSandbox({ pipelineSeconds: 0.01, balance: 1e9, ffmpeg: false });
  try {
    const memory = memoryFolder();
    const main = await run(sb.baseUrl, memory ?? tmpdir());
    const disk = memory ? await run(sb.baseUrl, tmpdir()) : null;
    const where = memory ? `home and outputs in ${memory}` : 'home and outputs on disk';
    return [
      {
        name: `engine overhead: ${JOBS} jobs, zero-length pipeline, CPU per job, ${where} (median of ${main.batches} batches; user ${round(main.user)} + system ${round(main.perJob - main.user)} ms)`,
        measured: round(main.perJob),
        unit: 'ms',
        target: '< 5',
        reference: `${disk ? `same on disk (${tmpdir()}): ${round(disk.perJob)} ms; ` : ''}first batch (JIT warming up): ${round(main.cold)} ms`,
        ratio: ratioOf(main.perJob, 5),
        pass: main.perJob < 5,
      },
    ];
  } finally {
    await sb.stop();
  }
}
