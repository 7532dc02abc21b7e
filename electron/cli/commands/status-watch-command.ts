import type { Command } from 'commander';
import { withSession } from '../context';
import { ExitCode } from '../exit-codes';
import { watchStatus } from '../status-watch';

/** `status --watch` until Ctrl+C (or SIGTERM), which ends it cleanly with exit code 0. */
export async function watchUntilInterrupted(cmd: Command): Promise<void> {
  const stop = new AbortController();
  const end = () => stop.abort();
  // Held (not `once`) until the end: log-update's cursor guard re-raises a signal it believes nobody else
  // hears, which ended a terminal's watch with 130 instead of 0.
  process.on('SIGINT', end);
  process.on('SIGTERM', end);
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
