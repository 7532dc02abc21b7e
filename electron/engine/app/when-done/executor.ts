/** How a when-done command ended: its exit code, or why it could not run or was stopped. */
export interface CommandOutcome {
  exitCode: number | null;
  failure: string | null;
}

/**
 * What acts on the computer when a batch is done. The real one runs the system's commands; tests give a
 * stand-in that records what it was asked (nothing here may really sleep or shut down a test machine).
 */
export interface WhenDoneExecutor {
  sleep(): Promise<void>;
  shutDown(): Promise<void>;
  /** Runs the user's command through the system's shell, `input` on its standard input. */
  run(command: string, input: string): Promise<CommandOutcome>;
}

/** The longest a when-done command may run before it is stopped: it must not hold the app for ever. */
export const COMMAND_LIMIT_MS = 10 * 60_000;

/** The system's own way to sleep and to shut down, per platform: a program and its arguments. */
export function powerCommand(action: 'sleep' | 'shutdown', platform: NodeJS.Platform): [string, string[]] {
  if (platform === 'win32')
    return action === 'sleep'
      ? ['rundll32.exe', ['powrprof.dll,SetSuspendState', '0,1,0']]
      : ['shutdown.exe', ['/s', '/t', '0']];
  if (platform === 'darwin')
    return action === 'sleep'
      ? ['pmset', ['sleepnow']]
      : ['osascript', ['-e', 'tell application "System Events" to shut down']];
  return action === 'sleep' ? ['systemctl', ['suspend']] : ['systemctl', ['poweroff']];
}

/** The executor that really acts, through `execa`. A power command that fails says why, in words. */
export function systemExecutor(platform: NodeJS.Platform = process.platform): WhenDoneExecutor {
  const power = async (action: 'sleep' | 'shutdown') => {
    const [file, args] = powerCommand(action, platform);
    const { execa } = await import('execa');
    const r = await execa(file, args, { reject: false, timeout: 30_000, stdin: 'ignore' });
    if (r.failed)
      throw new Error(
        `${action === 'sleep' ? 'sleeping' : 'shutting down'} failed: ${file} ${args.join(' ')} said ${String(
          r.stderr || r.shortMessage || 'nothing',
        )
          .trim()
          .slice(0, 300)}`,
      );
  };
  return {
    sleep: () => power('sleep'),
    shutDown: () => power('shutdown'),
    async run(command, input) {
      const { execa } = await import('execa');
      const r = await execa(command, {
        shell: true,
        input,
        reject: false,
        timeout: COMMAND_LIMIT_MS,
        stdout: 'ignore',
        stderr: 'pipe',
        maxBuffer: 64 * 1024,
      });
      if (r.timedOut)
        return { exitCode: null, failure: `stopped after ${COMMAND_LIMIT_MS / 60_000} minutes` };
      if (r.exitCode === undefined || r.exitCode === null)
        return { exitCode: null, failure: (r.shortMessage ?? 'it did not run').slice(0, 300) };
      const said = r.stderr ? `: ${String(r.stderr).trim().slice(0, 300)}` : '';
      return { exitCode: r.exitCode, failure: r.exitCode === 0 ? null : `exit code ${r.exitCode}${said}` };
    },
  };
}
