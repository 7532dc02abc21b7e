import type { ErrorCode } from '../../shared/contract/errors';

/** The CLI's exit codes; scripts rely on them (docs/cli.md lists them). */
export const ExitCode = {
  Ok: 0,
  /** Some job failed, or some input was skipped. */
  Failed: 1,
  /** Usage or validation error: nothing was queued. */
  Usage: 2,
  /** The API key is missing or was rejected. */
  Auth: 3,
  /** Not enough credits. */
  Credits: 4,
  /** The service cannot be reached. */
  Offline: 5,
  /** Another Dubdesk is working this queue. */
  Busy: 6,
  /** Interrupted (Ctrl+C): every job resumes on the next run. */
  Interrupted: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

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
