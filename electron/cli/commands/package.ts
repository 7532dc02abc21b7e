import { stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { Option, type Command } from 'commander';
import type { PackageFormat } from '../../../shared/contract/deliver';
import type { PackageView } from '../../../shared/contract/jobs';
import { withSession, type CliSession } from '../context';
import { describeError } from '../errors';
import { ExitCode } from '../exit-codes';
import { printable } from '../format';
import { followPackagesElsewhere } from '../package-elsewhere';
import { runQueue } from './run';

interface PackageFlags {
  format?: Exclude<PackageFormat, 'none'>;
}

/**
 * The finished jobs of `file` (a source, or a result it wrote), after its package was asked for; null, with
 * the reason on stderr, when there is none to package, or when its source is not there (asked all the same:
 * the next run makes it once the source is back).
 */
async function packageOne(
  s: CliSession,
  file: string,
  format: PackageFlags['format'],
): Promise<number[] | null> {
  const path = resolve(file);
  const { jobs } = await s.api.listJobs({ filter: { path, states: ['completed'] }, offset: 0, limit: 500 });
  const source = jobs[0]?.source ?? path;
  let view: PackageView;
  try {
    view = await s.api.packageNow({ source, ...(format ? { format } : {}) });
  } catch (e) {
    process.stderr.write(`dubdesk package: ${describeError(e)}\n`);
    return null;
  }
  if (jobs[0] && isAbsolute(source) && !(await stat(source).catch(() => null))?.isFile()) {
    process.stderr.write(
      `dubdesk package: no package of ${printable(jobs[0].sourceName)}: its source ${printable(source)} is not there (moved, renamed, or on a drive that is not plugged in): put it back, then \`dubdesk package\` it again or \`dubdesk run\` (no charge)\n`,
    );
    return null;
  }
  const languages = view.languages.length ? ` (${view.languages.join(', ')})` : '';
  process.stderr.write(
    `Packaging ${printable(source)} as ${view.format.toUpperCase()}${languages}: made here, nothing is charged.\n`,
  );
  return jobs.filter((j) => j.source === source).map((j) => j.id);
}

/** Whether a package of these jobs' sources failed (its reason was said with the run's last lines). */
async function anyPackageFailed(s: CliSession, ids: readonly number[]): Promise<boolean> {
  const { sources } = await s.api.listSources({ filter: { ids: [...ids] }, offset: 0, limit: 500 });
  return sources.some((row) => row.package?.state === 'failed');
}

export function registerPackageCommand(program: Command): void {
  program
    .command('package')
    .description(
      'Put the finished languages of each file into one file now (Package now): made here, never a service call, never a charge',
    )
    .argument('<files...>', 'source files whose dubs have finished (or a result of one)')
    .addOption(
      new Option('--format <format>', "mkv or mp4 (default: the batch's choice, else MKV)").choices([
        'mkv',
        'mp4',
      ]),
    )
    .action(async (files: string[], flags: PackageFlags, cmd: Command) => {
      process.exitCode = await withSession(cmd, { needsService: false }, async (s) => {
        const scope: number[] = [];
        let refused = 0;
        for (const file of files) {
          const ids = await packageOne(s, file, flags.format);
          if (ids) scope.push(...ids);
          else refused++;
        }
        if (scope.length === 0) return ExitCode.Usage;
        // The worker makes it: followed until it is made (or fails, said as a run says it).
        const run = await runQueue(
          s,
          { untilDone: true, concurrency: 2, pollInterval: 3, handedOnQuietly: true, handedOnOnly: true },
          scope,
        );
        if (run.code === ExitCode.HandedToOther) {
          const made = await followPackagesElsewhere(s.api, scope);
          return refused && made === ExitCode.Ok ? ExitCode.Failed : made;
        }
        if (run.code !== ExitCode.Ok) return run.code;
        return refused || (await anyPackageFailed(s, scope)) ? ExitCode.Failed : ExitCode.Ok;
      });
    });
}
