import { chosenHome } from '../home-choice';
import type { Command } from 'commander';
import { plural } from '../../../shared/format';
import type { AfterRestore } from '../../engine/index';
import { withSession, type GlobalFlags } from '../context';
import { printable } from '../format';

/**
 * `dubdesk restore-db`: the way back that a damaged queue database's message names. It puts the newest good
 * backup back with what the damaged file still holds, then asks the service for the dubs made since the
 * backup (so adding or watching their files again takes them instead of paying twice), and says what it
 * could not recover.
 */
export function registerRestoreCommand(program: Command): void {
  program
    .command('restore-db')
    .description(
      'Put back the newest good backup of the queue database (the damaged file is kept, renamed), and find the dubs made since; refused while another Dubdesk runs',
    )
    .action(async (_flags: unknown, cmd: Command) => {
      const engine = await import('../../engine/index');
      const { home: flag } = cmd.optsWithGlobals<GlobalFlags>();
      const home = chosenHome(flag, process.env, engine.defaultHome);
      const r = engine.restoreDatabase(home);
      const out = (line: string) => process.stdout.write(`${line}\n`);
      out(
        `Restored the queue from ${printable(r.restoredFrom)} (taken ${new Date(r.backupTakenAt).toISOString()}).`,
      );
      if (r.damagedKeptAs) out(`The damaged database is kept as ${printable(r.damagedKeptAs)}.`);
      out(
        r.salvaged.jobs
          ? `Put back ${plural(r.salvaged.jobs, 'job')} the damaged file still held.`
          : 'Nothing more could be read from the damaged file.',
      );
      if (r.salvaged.unreadable) out(`Not recovered from it: ${r.salvaged.unreadable}.`);
      const asked: AfterRestore | null | Error = await withSession(
        cmd,
        { needsService: true, quiet: true },
        (s) => s.host.recover(),
      ).catch((e: unknown) => (e instanceof Error ? e : new Error(String(e))));
      if (asked instanceof Error || asked === null) {
        const why = asked instanceof Error ? ` (${asked.message})` : '';
        out(
          `Could not ask the service for the dubs made since the backup${why}: Dubdesk asks it before it sends anything, so nothing is paid twice.`,
        );
        return;
      }
      const n = asked.unclaimed.length;
      out(
        n
          ? `The service lists ${plural(n, 'dub')} the restored queue does not know (${asked.unclaimed
              .slice(0, 5)
              .map((d) => `${printable(d.name)} → ${d.dest_lang}`)
              .join(
                ', ',
              )}${n > 5 ? ', …' : ''}): adding or watching ${n === 1 ? 'its file' : 'their files'} again takes ${n === 1 ? 'it' : 'them'}, not a new one.`
          : 'The service lists no dub the restored queue does not know.',
      );
    });
}
