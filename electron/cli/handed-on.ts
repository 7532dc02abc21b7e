import type { JobView } from '../../shared/contract/jobs';
import type { DubdeskApi } from '../../shared/contract/methods';
import { printable, shellArg } from './format';

const VERDICT = { warn: 'has warnings', fail: 'FAILS' } as const;

/** The terminal's command for a package refused in one format that the other takes (the engine says which). */
function commandFor(message: string | undefined, source: string): string {
  const other = /package it as (MKV|MP4) instead$/.exec(message ?? '')?.[1];
  return other ? `: dubdesk package --format ${other.toLowerCase()} ${printable(shellArg(source))}` : '';
}

/**
 * After a run, what was handed on for the dubs it finished: each source's package (or why it could not be
 * made), and each dub whose QC did not pass, with its first problem and where to read the rest. A run that
 * ends "2 completed" must not leave a failed QC unsaid. Returns how many of their packages failed (a package
 * asked for and not made: the run did not do all it was asked); `quiet` (--json) only counts them.
 */
export async function printHandedOn(
  api: DubdeskApi,
  finished: readonly JobView[],
  quiet = false,
): Promise<number> {
  if (finished.length === 0) return 0;
  const ids = finished.map((j) => j.id);
  const { sources } = await api.listSources({ filter: { ids }, offset: 0, limit: 500 });
  const failedPackages = sources.filter((s) => s.package?.state === 'failed').length;
  if (quiet) return failedPackages;
  for (const s of sources) {
    const p = s.package;
    if (p?.state === 'done' && p.path)
      process.stderr.write(`  package: ${printable(p.path)} (${p.languages.join(', ')})\n`);
    // Left waiting for room (the run was stopped meanwhile): made by the next run once there is room.
    if (p?.state === 'waiting' && p.error?.code === 'disk')
      process.stderr.write(
        `  … the package of ${printable(s.sourceName)} waits: ${printable(p.error.message)}; the next \`dubdesk run\` makes it once there is room (no charge)\n`,
      );
    if (p?.state === 'failed')
      process.stderr.write(
        `  ✗ no package of ${printable(s.sourceName)}: ${printable(p.error?.message ?? 'it failed')}${commandFor(p.error?.message, s.source)}\n`,
      );
  }
  for (const j of finished) {
    const verdict = j.qc?.verdict;
    if (!j.qc || (verdict !== 'warn' && verdict !== 'fail')) continue;
    const first = j.qc.problems[0];
    const why = first ? `: ${printable(first.message)}` : '';
    process.stderr.write(
      `  ! #${j.id} ${printable(j.sourceName)} → ${j.destLang}: QC ${VERDICT[verdict]}${why} (\`dubdesk qc ${j.id}\` says what to do)\n`,
    );
  }
  return failedPackages;
}
