import { InvalidArgumentError, Option, type Command } from 'commander';
import type { ServeFlags } from './serve-run';

function port(raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new InvalidArgumentError('expected a port from 0 to 65535 (0 picks a free one)');
  return n;
}

/**
 * Registers `serve`, which starts the web face (electron/web); its modules load only when it runs, so other
 * commands start as fast as before.
 */
export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('Open the Dubdesk app in your browser: the queue, served on 127.0.0.1 to this machine only')
    .option('--port <n>', 'port to listen on (0 picks a free one)', port, 0)
    .option(
      '--sandbox',
      'use the built-in sandbox (a simulator that does not translate), whatever is configured',
      false,
    )
    .option('--no-open', 'print the address without opening a browser')
    .option(
      '--link',
      'print a new one-time address for the serve already running (for a browser whose address was used)',
      false,
    )
    .addOption(new Option('--host <addr>').hideHelp())
    .action(async (flags: ServeFlags, cmd: Command) => {
      if (flags.link) return (await import('./serve-link')).printNewLink(cmd);
      const { serve } = await import('./serve-run');
      await serve(flags, cmd);
    });
}
