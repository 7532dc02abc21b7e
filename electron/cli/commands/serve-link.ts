import { chosenHome } from '../home-choice';
import type { Command } from 'commander';
import { DubdeskError } from '../../../shared/contract/errors';
import { NewLinkSchema, ReplySchema, ROUTES } from '../../../shared/serve-protocol';
import { PRINTED_CODE_TTL_MS, runningServers, type RunningServer } from '../../web/index';
import type { GlobalFlags } from '../context';

/** A new one-time address from a running server, or null when it does not answer (it stopped meanwhile). */
async function askForLink(server: RunningServer): Promise<string | null> {
  let res: Response;
  try {
    res = await fetch(`${server.origin}${ROUTES.newLink}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}` },
      signal: AbortSignal.timeout(10_000),
    });
  } catch {
    return null;
  }
  const reply = ReplySchema.safeParse(await res.json().catch(() => null));
  if (!reply.success || !reply.data.ok) return null;
  const link = NewLinkSchema.safeParse(reply.data.value);
  return link.success ? link.data.address : null;
}

/**
 * `dubdesk serve --link`: a fresh one-time address for the `serve` already running on this data folder
 * (electron/web/running-servers.ts says how it is found), on stdout, one line per running server, the
 * newest first. For a browser whose address was used, or a tab found after `serve` was started again.
 */
export async function printNewLink(cmd: Command): Promise<void> {
  const flags = cmd.optsWithGlobals<GlobalFlags>();
  const { defaultHome } = await import('../../engine/index');
  const home = chosenHome(flags.home, process.env, defaultHome);
  let printed = 0;
  for (const server of await runningServers(home)) {
    const address = await askForLink(server);
    if (!address) continue;
    process.stdout.write(`${address}\n`);
    printed++;
  }
  if (printed === 0)
    throw new DubdeskError('not-found', `no \`dubdesk serve\` is running on the data folder ${home}`, {
      remedy:
        'Start it with `npx dubdesk serve` (add --sandbox to try it without an account): it opens the browser.',
    });
  process.stderr.write(
    `Open ${printed === 1 ? 'this address' : 'one of these addresses'} in your browser: it works once, within ${PRINTED_CODE_TTL_MS / 60_000} minutes.\n`,
  );
}
