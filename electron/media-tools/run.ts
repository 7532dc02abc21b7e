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

/** Runs ffmpeg or ffprobe through execa: a timeout, the job's signal, stderr kept. */
export async function runTool(
  file: string,
  args: readonly string[],
  opts: RunOptions,
): Promise<{ stdout: string; stderr: string }> {
  const name = /ffprobe/i.test(file) ? 'ffprobe' : 'ffmpeg';
  // Loaded with the first tool run: a command that runs none starts without execa.
  const { execa, ExecaError } = await import('execa');
  try {
    const running = execa(file, args, {
      timeout: opts.timeoutMs,
      forceKillAfterDelay: 2000,
      ...(opts.signal ? { cancelSignal: opts.signal } : {}),
      detached: OWN_GROUP,
      stdin: 'ignore',
      maxBuffer: 64 * 1024 * 1024,
      windowsHide: true,
    });
    const told = running.pid !== undefined ? opts.onSpawn?.(running.pid) : undefined;
    const { stdout, stderr } = await running.finally(() => told);
    if (UNFINISHED.test(stderr))
      throw new MediaToolError(
        `${name} failed: ${lastLine(stderr)}`,
        tail(stderr),
        'failed',
        diskFullIn(stderr),
      );
    return { stdout, stderr };
  } catch (e) {
    if (!(e instanceof ExecaError)) throw e;
    const stderr = tail(typeof e.stderr === 'string' ? e.stderr : '');
    if (e.code === 'ENOENT' || e.code === 'EACCES')
      throw new MediaToolError(`${name} could not be started (${e.code}): ${file}`, stderr, 'missing');
    if (e.timedOut)
      throw new MediaToolError(
        `${name} took longer than ${Math.round(opts.timeoutMs / 1000)} s`,
        stderr,
        'timed-out',
      );
    if (e.isCanceled) throw new MediaToolError(`${name} was stopped`, stderr, 'stopped');
    throw new MediaToolError(
      `${name} failed: ${lastLine(stderr) || e.shortMessage}`,
      stderr,
      'failed',
      diskFullIn(stderr),
    );
  }
}
