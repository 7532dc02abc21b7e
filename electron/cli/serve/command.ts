import { InvalidArgumentError, Option, type Command } from 'commander';
import { DubdeskError } from '../../../shared/contract/errors';
import { openSession } from '../context';
import { ExitCode } from '../exit-codes';
import { openBrowser } from './open-browser';
import { rendererDir } from './renderer-files';
import { LOOPBACK, startServer, type DubdeskServer } from './server';
import { workQueue } from './worker';

interface ServeFlags {
  port: number;
  sandbox: boolean;
  open: boolean;
  host?: string;
}

function port(raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new InvalidArgumentError('expected a port from 0 to 65535 (0 picks a free one)');
  return n;
}

const say = (line: string) => process.stderr.write(`${line}\n`);

/** Resolves on the first SIGINT or SIGTERM; a second one quits at once. */
function interrupted(): Promise<void> {
  return new Promise((resolve) => {
    let signals = 0;
    const onSignal = () => {
      signals++;
      if (signals > 1) process.exit(ExitCode.Interrupted);
      say(
        '\nStopping after the current step; every job resumes where it was next time. (Ctrl+C again to quit now.)',
      );
      resolve();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

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
    .action(async (flags: ServeFlags, cmd: Command) => {
      if (flags.host !== undefined)
        throw new DubdeskError('bad-request', `serve listens on ${LOOPBACK} only and takes no --host`, {
          remedy: 'To use it from another machine, tunnel to it (ssh -L PORT:127.0.0.1:PORT this-machine).',
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
      // The first line on stdout is the address, token included, for people and for scripts.
      process.stdout.write(`${server.url}\n`);
      say(
        `Dubdesk is served at ${server.origin} to this machine only; open the address above. Ctrl+C stops.`,
      );
      if (session.sandbox)
        say('Using the built-in sandbox: a simulator of the service; it does not translate.');
      if (flags.open) await openBrowser(server.url, say);
      const worker = workQueue(session.host, session.api, say);

      await interrupted();
      worker.stop();
      await worker.stopped;
      await server.close();
      await session.close();
      process.exitCode = ExitCode.Interrupted;
    });
}
