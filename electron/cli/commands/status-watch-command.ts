import type { Command } from 'commander';
import { withSession } from '../context';
import { ExitCode } from '../exit-codes';
import { watchStatus } from '../status-watch';

/** `status --watch` until Ctrl+C (or SIGTERM), which ends it cleanly with exit code 0. */
export async function watchUntilInterrupted(cmd: Command): Promise<void> {
  const stop = new AbortController();
  const end = () => stop.abort();
  process.once('SIGINT', end);
  process.once('SIGTERM', end);
  try {
    process.exitCode = await withSession(cmd, { needsService: false }, async ({ api }) => {
      await watchStatus(api, stop.signal);
      return ExitCode.Ok;
    });
  } finally {
    process.off('SIGINT', end);
    process.off('SIGTERM', end);
  }
}
