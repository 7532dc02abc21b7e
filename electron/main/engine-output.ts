/**
 * What the engine's process prints (stdout and stderr, piped): every line goes to the shell's log, and the
 * last ones are kept, so a failure to start says why (a native module that would not load, a C library too
 * old) instead of only "the engine could not start".
 */
import type { Readable } from 'node:stream';
import { appendShellLog } from './shell-log';

/** Lines a failure dialog quotes. */
export const TAIL_LINES = 12;
/** Once the process is gone, how long its pipes get to hand over what is left in them. */
const DRAIN_MS = 2000;

export interface PipedOutput {
  stdout?: Readable | null;
  stderr?: Readable | null;
}

export class EngineOutput {
  private readonly recent: string[] = [];
  private open: Promise<void>[] = [];

  constructor(private readonly logFile: string) {}

  /** Follows a (new) engine process's pipes; returns it. */
  follow<C extends PipedOutput>(child: C): C {
    this.open = [child.stdout, child.stderr].flatMap((s, i) =>
      s ? [this.read(s, i === 0 ? 'stdout' : 'stderr')] : [],
    );
    return child;
  }

  /** The last lines printed, once the pipes of a process that ended are read to their end. */
  async tail(): Promise<string[]> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((r) => (timer = setTimeout(r, DRAIN_MS)));
    await Promise.race([Promise.all(this.open), late]);
    clearTimeout(timer);
    return this.recent.slice(-TAIL_LINES);
  }

  private read(stream: Readable, name: string): Promise<void> {
    let partial = '';
    stream.setEncoding('utf8');
    const take = (text: string) => {
      const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
      this.recent.push(...lines);
      this.recent.splice(0, Math.max(0, this.recent.length - TAIL_LINES * 4));
      appendShellLog(
        this.logFile,
        lines.map((l) => `engine ${name}: ${l}`),
      );
    };
    stream.on('data', (chunk: string) => {
      const text = partial + chunk;
      const cut = text.lastIndexOf('\n');
      partial = cut < 0 ? text : text.slice(cut + 1);
      if (cut >= 0) take(text.slice(0, cut));
    });
    return new Promise((resolve) => {
      const done = () => {
        if (partial) take(partial);
        partial = '';
        resolve();
      };
      stream.once('end', done);
      stream.once('close', done);
      stream.once('error', done);
    });
  }
}

/** What a user can do about the failures the engine's output names. */
export function remedyFor(lines: readonly string[]): string | null {
  const text = lines.join('\n');
  if (/GLIBC_2\.\d+|GLIBCXX_3\.4\.\d+/.test(text))
    return 'This Linux is older than Dubdesk needs: glibc 2.34 or newer (Ubuntu 22.04, Debian 12, Fedora 35, RHEL 9 or newer).';
  if (/No prebuild or local build of @parcel\/watcher|Cannot find module '@(?:parcel|napi-rs)\//.test(text))
    return `This copy of Dubdesk lacks its native parts for ${process.platform} ${process.arch}: download the installer made for this computer's processor.`;
  return null;
}
