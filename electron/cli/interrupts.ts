import { outputClosed } from './closed-pipe';
import { ExitCode } from './exit-codes';

export interface Interrupts {
  /** Aborted on the first Ctrl+C: nothing new starts, each running step ends after its HTTP call (a download at once: it resumes). */
  readonly drain: AbortSignal;
  /** Aborted on the second Ctrl+C, or on SIGTERM: transfers in flight are cut (they resume next time). */
  readonly cut: AbortSignal;
  dispose(): void;
}

/**
 * Ctrl+C the way a batch tool should take it: the first press lets the steps in flight finish their HTTP
 * call (an upload half sent is not thrown away), the second stops at once, the third quits without waiting
 * for anything. SIGTERM (a service manager, `kill`) means "now": it cuts at once. Nothing is lost either way:
 * every job resumes from what it recorded.
 */
export function handleInterrupts(say: (line: string) => void): Interrupts {
  const drain = new AbortController();
  const cut = new AbortController();
  let presses = 0;
  const onInt = () => {
    presses++;
    if (presses === 1) {
      say(
        '\nFinishing the current step of each running job, then stopping; every job resumes where it was next time. (Ctrl+C again to stop at once.)',
      );
      drain.abort();
    } else if (presses === 2) {
      say('\nStopping now; transfers in flight resume from where they got to. (Ctrl+C again to quit.)');
      drain.abort();
      cut.abort();
    } else process.exit(ExitCode.Interrupted);
  };
  const onTerm = () => {
    drain.abort();
    cut.abort();
  };
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  // Nobody reads what the run says any more (`dub … 2>&1 | head -3`): the output is commentary, the dubs
  // are what was asked for, so the batch goes on to its end; said once, where it still can be (stderr,
  // when only stdout was closed). Ctrl+C still stops it, and the log has every step.
  const onClosed = () =>
    say(
      'dubdesk: nothing reads this output any more; the batch goes on to its end (`dubdesk status` shows it, Ctrl+C stops it).',
    );
  if (outputClosed.aborted) onClosed();
  else outputClosed.addEventListener('abort', onClosed, { once: true });
  return {
    drain: drain.signal,
    cut: cut.signal,
    dispose: () => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      outputClosed.removeEventListener('abort', onClosed);
    },
  };
}

export interface CaughtInterrupts extends Interrupts {
  /** Where the messages go from now on (first stderr, then above the live progress). */
  sayWith(say: (line: string) => void): void;
}

/** `handleInterrupts` caught before the run's progress exists: its messages go to stderr until then. */
export function catchInterrupts(): CaughtInterrupts {
  let say: (line: string) => void = (line) => void process.stderr.write(`${line}\n`);
  const caught = handleInterrupts((line) => say(line));
  return {
    ...caught,
    sayWith: (next) => {
      say = next;
    },
  };
}
