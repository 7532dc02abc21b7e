import { existsSync, openSync, readSync, closeSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import pino, { type Logger } from 'pino';
import type { LogLine } from '../../../shared/contract/jobs';
import { redactForms } from '../api/scrub';
import { privateFile } from '../home/home';

const MAX_BYTES = 5 * 1024 * 1024;
const KEEP = 3;
const LEVELS: Record<number, LogLine['level']> = {
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'error',
};

/** A pre-signed query (`?X-Amz-Signature=…`) is a credential of a kind: logs keep only the path. */
const SIGNED_QUERY = /(https?:\/\/[^\s"?]+)\?[^\s"]*/g;

export const logFile = (home: string) => join(home, 'logs', 'dubdesk.log');

/** `dubdesk.log` -> `.1` -> `.2` -> `.3`, the oldest dropped. */
function rotate(file: string): void {
  rmSync(`${file}.${KEEP}`, { force: true });
  for (let i = KEEP - 1; i >= 1; i--)
    if (existsSync(`${file}.${i}`)) renameSync(`${file}.${i}`, `${file}.${i + 1}`);
  if (existsSync(file)) renameSync(file, `${file}.1`);
}

const size = (file: string) => {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
};

/**
 * The engine's structured log: JSON lines in `<home>/logs/dubdesk.log`, rotated by size, with every API key
 * and signed URL scrubbed from the final text (whatever field it hid in, JSON-escaped as a line holds it)
 * before it reaches the disk.
 */
export class EngineLog {
  readonly logger: Logger;
  private readonly dest: ReturnType<typeof pino.destination>;
  private writes = 0;

  constructor(
    private readonly home: string,
    secrets: () => readonly string[],
  ) {
    const file = logFile(home);
    if (size(file) > MAX_BYTES) rotate(file);
    privateFile(file);
    // Written as it is logged: a job's log is read back from this file (the job panel, `dubdesk log`), and a
    // line queued behind a thread pool held by a stuck share, or lost to a kill -9, is a line nobody reads.
    this.dest = pino.destination({ dest: file, sync: true, mkdir: true });
    // The log is a diagnostic: a write that fails later (disk full, the folder made read-only meanwhile)
    // must not end the engine with an unhandled 'error'. The file was checked writable above.
    this.dest.on('error', () => {});
    this.logger = pino(
      {
        base: { pid: process.pid },
        hooks: {
          streamWrite: (line) => {
            let out = line.replace(SIGNED_QUERY, '$1?[redacted]');
            out = redactForms(out, secrets());
            if (++this.writes % 500 === 0) queueMicrotask(() => this.rotateIfBig());
            return out;
          },
        },
      },
      this.dest,
    );
  }

  private rotateIfBig(): void {
    const file = logFile(this.home);
    if (size(file) <= MAX_BYTES) return;
    this.dest.flushSync();
    rotate(file);
    privateFile(file);
    this.dest.reopen();
  }

  /** The last `limit` lines about one job, oldest first (from the current file and the one before). */
  jobLines(
    jobId: number,
    limit: number,
    /**
     * When the job was created: older lines with its number were another job's (a job number is used
     * again after the newest jobs were cleared).
     */
    since = 0,
  ): LogLine[] {
    const found: LogLine[] = [];
    const file = logFile(this.home);
    for (const f of [file, `${file}.1`]) {
      const lines = tail(f, 4 * 1024 * 1024)
        .split('\n')
        .reverse();
      for (const text of lines) {
        if (!text.includes(`"jobId":${jobId}`)) continue;
        try {
          const o = JSON.parse(text) as { time?: number; level?: number; msg?: string; jobId?: number };
          if (o.jobId !== jobId) continue;
          if ((o.time ?? 0) < since) return found.reverse();
          found.push({
            at: new Date(o.time ?? 0).toISOString(),
            level: LEVELS[o.level ?? 30] ?? 'info',
            message: o.msg ?? '',
            jobId,
          });
          if (found.length >= limit) return found.reverse();
        } catch {
          /* a line cut by a crash */
        }
      }
    }
    return found.reverse();
  }

  close(): void {
    try {
      this.dest.flushSync();
    } catch {
      /* not open yet */
    }
    this.dest.end();
  }
}

/** The last `max` bytes of a file as text (a log can be large; we only need its end). */
function tail(file: string, max: number): string {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return '';
  }
  try {
    const total = statSync(file).size;
    const start = Math.max(0, total - max);
    const buf = Buffer.alloc(total - start);
    readSync(fd, buf, 0, buf.length, start);
    return buf.toString('utf8');
  } finally {
    closeSync(fd);
  }
}
