import type { ToolEnd } from './spawn-run';
import { startTool } from './tool-host';

/**
 * ffmpeg in a process group of its own (not on Windows, where that means a console window): a Ctrl+C meant
 * for the run goes to the terminal's whole group, and must not kill a rebuild the drain lets finish.
 */
const OWN_GROUP = process.platform !== 'win32';
/** What is kept of a tool's stderr for the job's log: its last lines say what went wrong. */
const STDERR_KEPT = 4000;

/** A media tool that failed, timed out or was stopped: what it said on stderr is kept for the log. */
export class MediaToolError extends Error {
  override name = 'MediaToolError';
  constructor(
    message: string,
    /** The tail of its stderr. */
    readonly stderr: string,
    readonly why: 'failed' | 'timed-out' | 'stopped' | 'missing',
    /** Set when it failed because its disk is full (its stderr says so): the caller waits for room. */
    readonly code: 'ENOSPC' | 'EDQUOT' | undefined = undefined,
    /** The signal that ended it when it crashed (SIGSEGV, SIGILL, SIGBUS), not when it was told to stop. */
    readonly crashedWith: string | null = null,
  ) {
    super(message);
  }
}

/** ffmpeg's words for a write refused by a full disk (strerror of ENOSPC and EDQUOT). */
const DISK_FULL = [
  { code: 'ENOSPC', words: /No space left on device/i },
  { code: 'EDQUOT', words: /Disk quota exceeded/i },
] as const;

const diskFullIn = (stderr: string) => DISK_FULL.find((d) => d.words.test(stderr))?.code;

/**
 * ffmpeg's words for an output it could not finish writing. It exits 0 after some of them (a trailer refused
 * by a full disk, with a subtitle stream encoded: ffmpeg 5.1), leaving half a file that looks whole.
 */
const UNFINISHED = /^(Error writing trailer of|Error closing file) /m;

export interface RunOptions {
  /** Killed after this long (SIGTERM, then SIGKILL two seconds later). */
  timeoutMs: number;
  /** The job's signal: a paused or canceled job kills its ffmpeg. */
  signal?: AbortSignal | undefined;
  /** Told the tool's pid once it started (awaited before the run is over). */
  onSpawn?: ((pid: number) => Promise<void>) | undefined;
}

const tail = (s: string) => (s.length > STDERR_KEPT ? `…${s.slice(-STDERR_KEPT)}` : s);
/** The last line ffmpeg wrote that says something (its last line is usually the reason). */
export const lastLine = (stderr: string) =>
  stderr
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .at(-1) ?? '';

/**
 * An input refused because its content is none of the formats it may be read as (`-format_whitelist`):
 * ffmpeg's last line then says only "Invalid argument".
 */
function notAllowed(stderr: string): string | null {
  const allowed = /Format not on whitelist '([^']*)'/.exec(stderr)?.[1];
  if (allowed === undefined) return null;
  const input = lastLine(stderr).replace(
    /: (Invalid argument|Invalid data found when processing input)$/,
    '',
  );
  return `${input}: its content is none of the formats it may be read as (${allowed.split(',').join(', ')})`;
}

/** How long a tool that was told to stop has before it is killed. */
const FORCE_KILL_AFTER_MS = 2000;

/** What a run that ended badly becomes: a MediaToolError that says why, in words. */
function failure(name: string, file: string, end: ToolEnd, timeoutMs: number): MediaToolError | null {
  const stderr = tail(end.stderr);
  if (end.startError)
    return new MediaToolError(`${name} could not be started (${end.startError}): ${file}`, stderr, 'missing');
  if (end.timedOut)
    return new MediaToolError(
      `${name} took longer than ${Math.round(timeoutMs / 1000)} s`,
      stderr,
      'timed-out',
    );
  if (end.canceled) return new MediaToolError(`${name} was stopped`, stderr, 'stopped');
  if (end.overflow)
    return new MediaToolError(`${name} said more than it may: it was stopped`, stderr, 'failed');
  if (end.exitCode === 0 && !UNFINISHED.test(end.stderr)) return null;
  const why = end.signal ? `it was killed (${end.signal})` : `it exited with ${end.exitCode ?? 'no code'}`;
  return new MediaToolError(
    `${name} failed: ${notAllowed(end.stderr) ?? (lastLine(end.stderr) || why)}`,
    stderr,
    'failed',
    diskFullIn(end.stderr),
    end.signal ?? null,
  );
}

/**
 * Runs ffmpeg or ffprobe: a timeout, the job's signal, stderr kept. While an engine is open it runs in
 * the tool host (tool-host.ts), which spawns it for the engine; a host that dies under it rejects with
 * ToolHostGoneError, which the caller lets through so the step is tried again.
 */
export async function runTool(
  file: string,
  args: readonly string[],
  opts: RunOptions,
): Promise<{ stdout: string; stderr: string }> {
  const name = /ffprobe/i.test(file) ? 'ffprobe' : 'ffmpeg';
  if (opts.signal?.aborted) throw new MediaToolError(`${name} was stopped`, '', 'stopped');
  const told: Promise<void>[] = [];
  const running = startTool(
    {
      file,
      args,
      timeoutMs: opts.timeoutMs,
      forceKillAfterMs: FORCE_KILL_AFTER_MS,
      ownGroup: OWN_GROUP,
      maxBuffer: 64 * 1024 * 1024,
    },
    (pid) => {
      const said = opts.onSpawn?.(pid);
      if (said) told.push(said);
    },
  );
  const cancel = () => running.cancel();
  opts.signal?.addEventListener('abort', cancel, { once: true });
  try {
    const end = await running.done;
    await Promise.all(told);
    const failed = failure(name, file, end, opts.timeoutMs);
    if (failed) throw failed;
    return { stdout: end.stdout, stderr: end.stderr };
  } finally {
    opts.signal?.removeEventListener('abort', cancel);
  }
}
