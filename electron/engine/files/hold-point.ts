/**
 * Crash tests' stop: with `DUBDESK_TEST_HOLD_AT=<name>` a process that reaches the point of that name says
 * so on stderr (`dubdesk: held at <name>`) and goes no further there, so a test can kill -9 it at exactly
 * that point, between two steps that a crash must not leave half done. Nothing happens without it.
 */
export async function holdPoint(name: string): Promise<void> {
  const pause = pauses.get(name);
  if (pause) {
    pauses.delete(name);
    await pause();
  }
  if (process.env.DUBDESK_TEST_HOLD_AT !== name) return;
  process.stderr.write(`dubdesk: held at ${name}\n`);
  await new Promise<never>(() => {});
}

const pauses = new Map<string, () => Promise<void>>();

/**
 * In-process tests' interleaving: the next time this process reaches the point `name`, it waits there for
 * `until` (which waits for work beside it to happen first), then goes on. Once; the returned undo drops it
 * if it was never reached.
 */
export function pauseAt(name: string, until: () => Promise<void>): () => void {
  pauses.set(name, until);
  return () => pauses.delete(name);
}
