/**
 * Crash tests' stop: with `DUBDESK_TEST_HOLD_AT=<name>` a process that reaches the point of that name says
 * so on stderr (`dubdesk: held at <name>`) and goes no further there, so a test can kill -9 it at exactly
 * that point, between two steps that a crash must not leave half done. Nothing happens without it.
 */
export async function holdPoint(name: string): Promise<void> {
  if (process.env.DUBDESK_TEST_HOLD_AT !== name) return;
  process.stderr.write(`dubdesk: held at ${name}\n`);
  await new Promise<never>(() => {});
}
