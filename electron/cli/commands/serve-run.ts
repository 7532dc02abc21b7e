import type { Command } from 'commander';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { DubdeskError } from '../../../shared/contract/errors';
import {
  announceServer,
  LOOPBACK,
  OPENED_CODE_TTL_MS,
  openBrowser,
  PRINTED_CODE_TTL_MS,
  rendererDir,
  startServer,
  workQueue,
  type DubdeskServer,
} from '../../web/index';
import { openSession } from '../context';
import { ExitCode } from '../exit-codes';
import { handleInterrupts } from '../interrupts';

export interface ServeFlags {
  port: number;
  sandbox: boolean;
  open: boolean;
  /** Print a new address for the serve already running, and end (serve-link.ts). */
  link: boolean;
  /** Hidden: refused with a remedy (serve never listens beyond this machine). */
  host?: string;
}

const say = (line: string) => process.stderr.write(`${line}\n`);

/**
 * `dubdesk serve`: the engine (the built-in sandbox with `--sandbox`), the HTTP server, and the queue
 * worked in this process until Ctrl+C, which ends with 130 like `run`.
 */
export async function serve(flags: ServeFlags, cmd: Command): Promise<void> {
  if (flags.host !== undefined)
    throw new DubdeskError('bad-request', `serve listens on ${LOOPBACK} only and takes no --host`, {
      remedy: `To use it from another machine, tunnel to it (ssh -L PORT:${LOOPBACK}:PORT this-machine).`,
    });
  const ui = rendererDir(say);
  const session = await openSession(cmd, { needsService: false, face: 'web', sandbox: flags.sandbox });
  let server: DubdeskServer;
  try {
    server = await startServer({
      engine: session.host,
      port: flags.port,
      rendererDir: ui,
      log: { stream: process.stderr, level: 'warn' },
    });
  } catch (e) {
    await session.close();
    if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE')
      throw new DubdeskError('conflict', `port ${flags.port} is already in use`, {
        remedy: 'Pick another with --port, or --port 0 for any free one.',
      });
    throw e;
  }
  // The first line on stdout is the address, for people and for scripts (which trade its code for the
  // token at POST /session). The browser gets an address of its own: each code works once.
  process.stdout.write(`${server.newAddress(PRINTED_CODE_TTL_MS)}\n`);
  const withdraw = await announceServer(session.host.home, server).catch((e: Error) => {
    say(
      `\`dubdesk serve --link\` will not find this serve (${e.message}); Enter here still gives a new address.`,
    );
    return async () => {};
  });
  const enter = process.stdin.isTTY ? ' or press Enter here' : '';
  say(
    `Dubdesk is served at ${server.origin} to this machine only. Open the address above: it works once, within ${PRINTED_CODE_TTL_MS / 60_000} minutes, and the browser it opens in stays signed in (every tab). For a new address: \`dubdesk serve --link\`${enter}. Ctrl+C stops.`,
  );
  if (session.sandbox) say('Using the built-in sandbox: a simulator of the service; it does not translate.');
  if (flags.open) await openInBrowser(server);
  const keys = newAddressOnEnter(server);
  const worker = workQueue(session.host, say);

  const interrupts = handleInterrupts(say);
  // The page keeps being served while the running steps finish, so it shows them finishing.
  await new Promise<void>((resolve) => interrupts.drain.addEventListener('abort', () => resolve()));
  interrupts.cut.addEventListener('abort', () => worker.stop('cut'));
  worker.stop(interrupts.cut.aborted ? 'cut' : 'drain');
  await worker.stopped;
  interrupts.dispose();
  keys?.close();
  await withdraw();
  await server.close();
  await session.close();
  process.exitCode = ExitCode.Interrupted;
}

/**
 * Opens the browser on a private file's path (the code inside it), not on the address: a command line is
 * readable by every local user, and whoever trades the code first gets the session. A browser that cannot
 * read the data folder (one installed as a snap or a flatpak, one on another machine) never trades that
 * code: when its minute is up, the terminal says what to do instead.
 */
async function openInBrowser(server: DubdeskServer): Promise<void> {
  const file = await server
    .newRedirectFile(OPENED_CODE_TTL_MS, (end) => {
      if (end === 'expired')
        say(
          'The browser has not opened Dubdesk (a browser installed as a snap or flatpak cannot open a page of the data folder): open the address above in it, or get a new one with `dubdesk serve --link`.',
        );
    })
    .catch((e: Error) => {
      say(`No browser was opened (${e.message}): open the address above yourself.`);
      return null;
    });
  // As a file:// address, every letter escaped in ASCII: a browser reads a bare path in the locale's
  // character set, and in the C locale (or one never generated) cannot find a folder named "Klasörü".
  if (file) await openBrowser(pathToFileURL(file).href, say);
}

/** In a terminal, Enter prints a new one-time address (stdout), as `serve --link` would. */
function newAddressOnEnter(server: DubdeskServer): { close(): void } | null {
  if (!process.stdin.isTTY) return null;
  // Not a terminal-mode reader: the terminal keeps its own line editing and Ctrl+C stays a signal.
  const lines = createInterface({ input: process.stdin, terminal: false });
  lines.on('line', () => {
    process.stdout.write(`${server.newAddress(PRINTED_CODE_TTL_MS)}\n`);
    say(`A new address (it works once, within ${PRINTED_CODE_TTL_MS / 60_000} minutes).`);
  });
  return { close: () => lines.close() };
}
