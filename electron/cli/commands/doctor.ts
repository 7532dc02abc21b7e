import { chosenHome } from '../home-choice';
import type { Command } from 'commander';
import { openSession, type CliSession, type GlobalFlags } from '../context';
import { ExitCode } from '../exit-codes';
import { printJson, printable } from '../format';

/**
 * `dubdesk doctor`: the same checks as the app's Help > Copy Diagnostics, a line each, with the fix for each
 * failure. Exit 0 only when every check passes.
 */
/** A line made safe for a terminal, its indent kept. */
const indented = (line: string) => (/^\s*/.exec(line)?.[0] ?? '') + printable(line);

export function registerDoctorCommand(program: Command): void {
  program
    .command('doctor')
    .description('Check this installation: runtime, data folder, database, key store, service, sandbox, log')
    .option('--json', 'print a JSON document on stdout', false)
    .action(async (flags: { json: boolean }, cmd: Command) => {
      const global = cmd.optsWithGlobals<GlobalFlags>();
      const engine = await import('../../engine/index');
      const home = chosenHome(global.home, process.env, engine.defaultHome);
      let session: CliSession | null = null;
      try {
        const checks = await engine.diagnose({
          home,
          versions: { node: process.versions.node },
          keyStore: process.env.DUBDESK_KEY_STORE === 'file' ? 'file' : 'system',
          api: async () => {
            session = await openSession(cmd, { needsService: false, quiet: true });
            return session.api;
          },
          startSandbox: async (dir) => (await import('../../sandbox/builtin')).startBuiltInSandbox(dir),
        });
        const ok = checks.every((c) => c.ok);
        if (flags.json) printJson({ ok, checks });
        else process.stdout.write(`${engine.formatChecks(checks).split('\n').map(indented).join('\n')}\n`);
        if (!ok) process.exitCode = ExitCode.Failed;
      } finally {
        await (session as CliSession | null)?.close();
      }
    });
}
