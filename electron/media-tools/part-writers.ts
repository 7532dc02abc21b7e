import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { processesNaming, processStart } from './process-start';

const Running = z.object({ pid: z.number().int().positive(), start: z.string().min(1) });
const WriterRecord = z.object({ part: z.string().min(1), owner: Running, tool: Running.nullable() });
type WriterRecord = z.infer<typeof WriterRecord>;
type Running = z.infer<typeof Running>;

/** How long a stale ffmpeg killed at a run's start is waited for. */
const KILL_WAIT_MS = 5000;

let ownStart: Promise<string | null> | null = null;
const thisProcess = async (): Promise<Running | null> => {
  ownStart ??= processStart(process.pid);
  const start = await ownStart;
  return start ? { pid: process.pid, start } : null;
};

/** Whether the very process recorded still runs (its pid, started when it was). */
const stillRuns = async (p: Running) => (await processStart(p.pid)) === p.start;

/** One ffmpeg writing one `.part` of its own. */
export interface PartWriter {
  /** The part this writer alone writes. */
  part: string;
  /** Records the ffmpeg started for it. */
  spawned: (pid: number) => Promise<void>;
  /** Its ffmpeg is over: the record goes. */
  end: () => Promise<void>;
}

/**
 * The ffmpegs writing `.part` files, a record each in a folder of the data folder. ffmpeg runs in a process
 * group of its own (a Ctrl+C must not kill a rebuild the drain lets finish), so a Dubdesk killed with -9
 * leaves it writing for a while: every writer has a part name of its own, and a run's start stops the
 * ffmpegs of dead runs (the very process recorded: pid and start time, never another that took its pid)
 * and removes their parts.
 */
export class PartWriters {
  constructor(private readonly dir: string) {}

  /** A part of its own beside `out`, recorded before its ffmpeg starts. */
  async begin(out: string): Promise<PartWriter> {
    const tag = randomBytes(4).toString('hex');
    const part = `${out}.${tag}.part`;
    const record = join(this.dir, `${tag}.json`);
    const owner = await thisProcess();
    const write = (tool: Running | null) =>
      owner
        ? writeFile(record, JSON.stringify({ part, owner, tool } satisfies WriterRecord)).catch(() => {})
        : Promise.resolve();
    await mkdir(this.dir, { recursive: true }).catch(() => {});
    await write(null);
    return {
      part,
      spawned: async (pid) => {
        const start = await processStart(pid);
        if (start) await write({ pid, start });
      },
      end: () => rm(record, { force: true }).catch(() => {}),
    };
  }

  /** Stops the ffmpegs of runs that are over and removes their parts: at a run's start, before it writes. */
  async sweep(): Promise<void> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    for (const name of names.filter((n) => n.endsWith('.json'))) {
      const path = join(this.dir, name);
      const read = WriterRecord.safeParse(
        await readFile(path, 'utf8').then(
          (text) => JSON.parse(text) as unknown,
          () => null,
        ),
      );
      if (read.success && (await stillRuns(read.data.owner))) continue;
      if (read.success) {
        for (const tool of await toolsOf(read.data)) await stopStale(tool);
        await rm(read.data.part, { force: true }).catch(() => {});
      }
      await rm(path, { force: true }).catch(() => {});
    }
  }
}

/**
 * The ffmpeg of a record: the one recorded, or (a run killed before it recorded its ffmpeg's pid) the ones
 * whose command line names the record's part, a name of its own.
 */
async function toolsOf(record: WriterRecord): Promise<Running[]> {
  if (record.tool) return [record.tool];
  const found = await Promise.all(
    (await processesNaming(record.part)).map(async (pid) => ({ pid, start: await processStart(pid) })),
  );
  return found.flatMap((p) => (p.start ? [{ pid: p.pid, start: p.start }] : []));
}

/** Kills a stale ffmpeg's process group (it leads one of its own), and waits until it is gone. */
async function stopStale(tool: Running): Promise<void> {
  if (!(await stillRuns(tool))) return;
  try {
    process.kill(process.platform === 'win32' ? tool.pid : -tool.pid, 'SIGKILL');
  } catch {
    return; // gone meanwhile
  }
  for (const until = Date.now() + KILL_WAIT_MS; Date.now() < until && (await stillRuns(tool));)
    await new Promise((r) => setTimeout(r, 20));
}
