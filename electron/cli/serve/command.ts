import { InvalidArgumentError, Option, type Command } from 'commander';
import { DubdeskError } from '../../../shared/contract/errors';
import { LOOPBACK } from './loopback';
import type { ServeFlags } from './start';

function port(raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new InvalidArgumentError('expected a port from 0 to 65535 (0 picks a free one)');
  return n;
}

/** Registers `serve`; the server's modules load only when it runs, so other commands start as fast as before. */
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
    .addOption(new Option('--host <addr>').hideHelp())
    .action(async (flags: ServeFlags & { host?: string }, cmd: Command) => {
      if (flags.host !== undefined)
        throw new DubdeskError('bad-request', `serve listens on ${LOOPBACK} only and takes no --host`, {
          remedy: `To use it from another machine, tunnel to it (ssh -L PORT:${LOOPBACK}:PORT this-machine).`,
        });
      const { serve } = await import('./start');
      await serve(flags, cmd);
    });
}
