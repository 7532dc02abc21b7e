import { Help } from 'commander';
import type { ErrorCode } from '../../shared/contract/errors';

/** The CLI's exit codes; scripts rely on them (`dubdesk --help` and docs/cli.md list them). */
export const ExitCode = {
  Ok: 0,
  /** Some job failed, or some inputs were skipped while the rest went ahead. */
  Failed: 1,
  /** Usage or validation error, or every input was skipped: nothing was queued. */
  Usage: 2,
  /** The API key is missing or was rejected. */
  Auth: 3,
  /** Not enough credits. */
  Credits: 4,
  /** The service cannot be reached. */
  Offline: 5,
  /** Another Dubdesk is working this queue. */
  Busy: 6,
  /** `run --until-done` or `dub` stopped with jobs still open because the queue, or those jobs, are paused. */
  Paused: 7,
  /** `run --until-done` stopped with jobs left that were made on another service or account (only it finishes them). */
  Elsewhere: 8,
  /** The batch went well (it would have been 0), but the `--when-done` command failed. */
  WhenDoneFailed: 9,
  /** `dub` queued its jobs, and another Dubdesk already working the queue dubs them: not a failure. */
  HandedToOther: 10,
  /** Interrupted (Ctrl+C): every job resumes on the next run. */
  Interrupted: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** What each code means, as `dubdesk --help` lists them. */
const MEANINGS: Record<ExitCode, string> = {
  0: 'everything asked for is done',
  1: 'some job failed, or some inputs were skipped while the rest went ahead (the summary names each one)',
  2: 'usage or validation error, or every input was skipped: nothing was queued',
  3: 'the API key is missing or was rejected',
  4: 'not enough credits',
  5: 'the service cannot be reached (the jobs stay queued)',
  6: 'another Dubdesk is working this queue',
  7: '`run --until-done` or `dub` stopped with jobs left because the queue or those jobs are paused (`dubdesk resume` goes on)',
  8: '`run --until-done` stopped with jobs left that were made on another service or account: switch back to it to finish them',
  9: 'the batch went well, but the --when-done command failed (exited non-zero or could not start)',
  10: '`dub` queued its jobs and another Dubdesk working this queue (serve, the app, another run) dubs them: not a failure; `dubdesk status --watch` follows them',
  130: 'interrupted (Ctrl+C); every job resumes on the next run',
};

/** The "Exit codes:" section of `dubdesk --help`. */
const CODE_COLUMN = 7;

/** The exit codes for `--help`, each meaning beside its code, wrapped within `width` columns (commander's wrap). */
export function exitCodesHelp(width: number): string {
  const help = Object.assign(new Help(), { minWidthToWrap: 20 });
  const lines = Object.values(ExitCode).map((c) => {
    const meaning = Number.isFinite(width) ? help.boxWrap(MEANINGS[c], width - CODE_COLUMN) : MEANINGS[c];
    return `  ${String(c).padEnd(CODE_COLUMN - 2)}${meaning.replace(/\n/g, `\n${' '.repeat(CODE_COLUMN)}`)}`;
  });
  return `\nExit codes:\n${lines.join('\n')}\n`;
}

export function exitCodeFor(code: ErrorCode): ExitCode {
  switch (code) {
    case 'auth':
      return ExitCode.Auth;
    case 'credits':
      return ExitCode.Credits;
    case 'offline':
      return ExitCode.Offline;
    case 'busy':
      return ExitCode.Busy;
    case 'canceled':
      return ExitCode.Interrupted;
    case 'bad-request':
    case 'bad-language':
    case 'config':
    case 'not-media':
    case 'too-large':
    case 'not-found':
    case 'disk':
    case 'permission':
    case 'conflict':
      return ExitCode.Usage;
    default:
      return ExitCode.Failed;
  }
}
