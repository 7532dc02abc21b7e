import { Option, type Command } from 'commander';
import {
  LOUDNESS_TARGETS,
  type LoudnessTarget,
  type Qc,
  type QcMeasured,
} from '../../../shared/contract/deliver';
import type { JobFilter, JobView } from '../../../shared/contract/jobs';
import type { DubdeskApi } from '../../../shared/contract/methods';
import { thenSay } from '../../../shared/format';
import { withSession } from '../context';
import { ExitCode } from '../exit-codes';
import { describeJob, printJson } from '../format';
import { QcJson } from '../json-shapes';
import { jobId } from '../options';
import { say } from '../status-view';

interface QcFlags {
  json: boolean;
  failed: boolean;
  loudness?: LoudnessTarget;
}

const ids = (raw: string, previous: number[] = []) => [...previous, jobId(raw)];

/** The figures of a check on one line: length, loudness, true peak. */
export function qcFigures(qc: Qc): string {
  const delta =
    qc.durationDelta === null
      ? 'length ?'
      : `length ${qc.durationDelta > 0 ? '+' : ''}${qc.durationDelta.toFixed(2)} s`;
  const lufs = qc.loudness.integrated === null ? 'silent' : `${qc.loudness.integrated.toFixed(1)} LUFS`;
  const tp = qc.loudness.truePeak;
  const peak = tp === null ? '' : `, true peak ${tp > 0 ? '+' : ''}${tp.toFixed(1)} dBTP`;
  const source =
    qc.loudness.source === null || qc.loudness.source === undefined
      ? ''
      : `; source ${qc.loudness.source.toFixed(1)} LUFS`;
  return `${delta}, ${lufs} (target ${qc.target.lufs}±${qc.target.tolerance}${source})${peak}`;
}

const VERDICT_WORD = { pass: 'passes', warn: 'has warnings', fail: 'FAILS' } as const;

/** Which file a check measured, and in a video made here how the dub was fitted to its picture. */
export function qcMeasuredLine(measured: QcMeasured): string {
  const { fit } = measured;
  const fitted = fit
    ? ` (the dub ${fit.how === 'cut' ? 'cut' : 'padded with silence'} by ${fit.seconds.toFixed(2)} s to the picture)`
    : '';
  const what = measured.kind === 'rebuilt' ? `the video made here${fitted}` : 'as the service sent it';
  return `measured: ${measured.path}, ${what}`;
}

/** One job's check, in words: its verdict and figures, then each problem and what to do. */
export function describeQc(j: JobView): string {
  const head = describeJob(j);
  if (!j.qc) {
    const why =
      j.state === 'completed'
        ? 'not checked yet (it is checked after the download)'
        : `not checked: it is ${j.state}`;
    return `${head}: ${why}`;
  }
  const lines = [`${head}: QC ${VERDICT_WORD[j.qc.verdict]} (${qcFigures(j.qc)})`];
  if (j.qc.measured) lines.push(`  ${qcMeasuredLine(j.qc.measured)}`);
  // The engine's remedy names `dubdesk again ID`: here the job's number is known.
  for (const p of j.qc.problems)
    lines.push(
      `  ${p.severity === 'fail' ? 'fail' : 'warn'}: ${p.message}.`,
      `    ${p.remedy.replaceAll('dubdesk again ID', `dubdesk again ${j.id}`)}`,
    );
  return lines.join('\n');
}

async function jobsFor(api: DubdeskApi, wanted: number[], failedOnly: boolean): Promise<JobView[]> {
  const filter: JobFilter = wanted.length ? { ids: wanted } : { states: ['completed'] };
  const out: JobView[] = [];
  for (let offset = 0; ; offset += 500) {
    const page = await api.listJobs({ filter, offset, limit: 500 });
    out.push(...page.jobs);
    if (out.length >= page.total || page.jobs.length === 0) break;
  }
  return failedOnly ? out.filter((j) => j.qc?.verdict === 'fail') : out;
}

/**
 * `--loudness`: the finished dubs asked for (every checked one by default) judged again against that target
 * from their stored measurement, before they are shown. Says on stderr which could not be, and why.
 */
async function judgeAgain(api: DubdeskApi, wanted: number[], target: LoudnessTarget): Promise<void> {
  const ids = wanted.length
    ? wanted
    : (await jobsFor(api, [], false)).filter((j) => j.qc && j.qc.target.name !== target).map((j) => j.id);
  if (ids.length === 0) return;
  const r = await api.judgeQc({ ids, loudness: target });
  for (const s of r.skipped)
    if (s.error.code !== 'not-found')
      process.stderr.write(
        `dubdesk qc: ${s.error.remedy ? thenSay(s.error.message, s.error.remedy) : s.error.message}\n`,
      );
  if (r.changed.length)
    process.stderr.write(
      `Judged ${r.changed.length === 1 ? `job #${r.changed[0]}` : `${r.changed.length} dubs`} again against the ${target} target (${LOUDNESS_TARGETS[target].lufs} LUFS ±${LOUDNESS_TARGETS[target].tolerance}), from the figures measured after the download: nothing was charged.\n`,
    );
}

export function registerQcCommand(program: Command): void {
  program
    .command('qc')
    .description(
      'QC of finished dubs, checked on this machine: length against the source, loudness (EBU R128) and true peak, clipping, long silences, and the subtitles',
    )
    .argument('[ids...]', 'job ids (default: every completed job)', ids)
    .option('--failed', 'only the dubs whose QC fails', false)
    .addOption(
      new Option(
        '--loudness <target>',
        'judge the dubs again against this loudness target from what was measured, at no cost: broadcast (-23 LUFS) or web (-14 LUFS)',
      ).choices(['broadcast', 'web']),
    )
    .option('--json', 'print the jobs and their QC as JSON on stdout (see docs/cli-json.md)', false)
    .action(async (given: number[] | undefined, flags: QcFlags, cmd: Command) => {
      process.exitCode = await withSession(cmd, { needsService: false, quiet: true }, async ({ api }) => {
        const wanted = given ?? [];
        if (flags.loudness) await judgeAgain(api, wanted, flags.loudness);
        const jobs = await jobsFor(api, wanted, flags.failed);
        const missing = wanted.filter((id) => !jobs.some((j) => j.id === id));
        const failing = jobs.some((j) => j.qc?.verdict === 'fail');
        if (flags.json) {
          printJson(
            QcJson.parse({
              jobs: jobs.map((j) => ({
                id: j.id,
                source: j.source,
                destLang: j.destLang,
                state: j.state,
                qc: j.qc ?? null,
              })),
              missing,
            }),
          );
        } else {
          for (const id of missing)
            process.stderr.write(`dubdesk qc: no job #${id} (see \`dubdesk status\`).\n`);
          if (jobs.length === 0 && missing.length === 0)
            say(
              flags.failed
                ? 'No dub fails QC.'
                : 'No finished dub yet: QC runs on each one after its download.',
            );
          for (const j of jobs) say(describeQc(j));
          if (failing)
            say(
              '\nA failed QC hides nothing: the files are where they were. `dubdesk again ID` dubs one again with its own choices (charged again).',
            );
        }
        if (missing.length && jobs.length === 0) return ExitCode.Usage;
        return failing ? ExitCode.Failed : ExitCode.Ok;
      });
    });
}
