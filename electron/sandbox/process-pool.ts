import { execa, type ResultPromise } from 'execa';
import { availableParallelism } from 'node:os';
import type { MediaTools } from '../media-tools/locate';

/**
 * ffmpeg in a process group of its own (not on Windows, where that means a console window): a Ctrl+C in
 * the terminal goes to the whole foreground group, and the built-in sandbox runs inside `dubdesk run`, so
 * ffmpeg died with the first press and the dub it was making failed, though the run was only finishing up.
 */
export const OWN_GROUP = process.platform !== 'win32';

/** Ends a process and what it started: its group where it has one of its own. */
function endGroup(child: ResultPromise): void {
  const pid = child.pid;
  if (OWN_GROUP && pid !== undefined) {
    try {
      process.kill(-pid, 'SIGKILL');
      return;
    } catch {
      // Already gone, or its group with it: nothing to end.
    }
  }
  child.kill('SIGKILL');
}

/** Work that was still waiting for a slot when the pool closed: it never ran. */
export class PoolClosedError extends Error {
  override name = 'PoolClosedError';
}

/** Where the pool's ffmpeg and ffprobe are (Dubdesk's own first: see media-tools/locate.ts). */
export type PoolTools = Pick<MediaTools, 'ffmpeg' | 'ffprobe'>;

/**
 * Every ffprobe and ffmpeg the sandbox starts goes through one pool: a burst of creates queues its media
 * work instead of starting dozens of processes that starve the server of CPU. Without `tools` the sandbox
 * makes its stand-ins without ffmpeg.
 */
export class ProcessPool {
  private running = 0;
  /** The processes under way, each in its group of its own: stopping the sandbox ends them. */
  private readonly processes = new Set<ResultPromise>();
  private readonly waiting: { start: () => void; cancel: () => void }[] = [];
  private closed = false;
  /** The most processes that ever ran at once: tests check it never passes `size`. */
  peak = 0;
  /** How many processes were started in all. */
  started = 0;

  constructor(
    readonly tools: PoolTools | null,
    readonly size: number = availableParallelism(),
  ) {}

  run(tool: keyof PoolTools, args: string[]): Promise<{ stdout: string; stderr: string }> {
    if (!this.tools) return Promise.reject(new Error(`the sandbox has no ${tool}`));
    return this.runFile(this.tools[tool], args);
  }

  /** Any program, through the pool's slots and in a process group of its own. */
  async runFile(file: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
    await this.acquire();
    const child = execa(file, args, {
      maxBuffer: 16 * 1024 * 1024,
      detached: OWN_GROUP,
      stdin: 'ignore',
    });
    this.processes.add(child);
    try {
      const { stdout, stderr } = await child;
      return { stdout, stderr };
    } catch (e) {
      // Ended by close(): the work is undone, not failed (the sandbox does it again on its next start).
      if (this.closed) throw new PoolClosedError('the sandbox is stopping');
      throw e;
    } finally {
      this.processes.delete(child);
      this.release();
    }
  }

  /**
   * Stops: whatever still waits for a slot fails with PoolClosedError, and the processes under way are ended
   * (a long dub's ffmpeg held a stopping `dubdesk run` for as long as it had left). What they were making
   * is left undone, and made again when a sandbox starts on the same state.
   */
  close(): void {
    this.closed = true;
    for (const w of this.waiting.splice(0)) w.cancel();
    for (const child of this.processes) endGroup(child);
  }

  private acquire(): Promise<void> {
    if (this.closed) return Promise.reject(new PoolClosedError('the sandbox is stopping'));
    if (this.running < this.size) {
      this.take();
      return Promise.resolve();
    }
    return new Promise((resolve, reject) =>
      this.waiting.push({
        start: () => {
          this.take();
          resolve();
        },
        cancel: () => reject(new PoolClosedError('the sandbox is stopping')),
      }),
    );
  }

  private take(): void {
    this.running++;
    this.started++;
    this.peak = Math.max(this.peak, this.running);
  }

  private release(): void {
    this.running--;
    this.waiting.shift()?.start();
  }
}
