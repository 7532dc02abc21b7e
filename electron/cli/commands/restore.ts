import type { Command } from 'commander';
import type { GlobalFlags } from '../context';
import { printable } from '../format';

/** `dubdesk restore-db`: the way back that a damaged queue database's message names. */
export function registerRestoreCommand(program: Command): void {
  program
    .command('restore-db')
    .description(
      'Put back the newest good backup of the queue database (the damaged file is kept, renamed); run it with no other Dubdesk open',
    )
    .action(async (_flags: unknown, cmd: Command) => {
      const engine = await import('../../engine/index');
      const { home: flag } = cmd.optsWithGlobals<GlobalFlags>();
      const home = [flag, process.env.DUBDESK_HOME].find((v) => v) ?? engine.defaultHome();
      const r = engine.restoreDatabase(home);
      process.stdout.write(
        `Restored the queue from ${printable(r.restoredFrom)}.\nThe damaged database is kept as ${printable(r.damagedKeptAs)}.\n`,
      );
    });
}
