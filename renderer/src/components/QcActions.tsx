import { useState } from 'react';
import {
  LOUDNESS_TARGETS,
  nearLoudnessTarget,
  OTHER_LOUDNESS_TARGET,
  type Qc,
} from '../../../shared/contract/deliver';
import type { JobView } from '../../../shared/contract/jobs';
import { plural } from '../../../shared/format';
import { languageName } from '../../../shared/languages';
import { formatCredits } from '../format';
import { useApp, useBridge } from '../store';
import { useBusyAction } from './useBusyAction';

/**
 * Dubs this source into this language again, with the job's own choices (the engine knows them): what it
 * costs first, as the service bills that send path, then a confirm with that cost.
 */
export function DubAgain({ job }: { job: JobView }) {
  const bridge = useBridge();
  const confirm = useApp((s) => s.confirm);
  const notify = useApp((s) => s.notify);
  const { busy, run } = useBusyAction(async () => {
    const estimate = await bridge.estimateAgain({ id: job.id });
    const problem = estimate.files[0]?.problem;
    if (problem) throw problem;
    const credits = estimate.unknownLengthJobs > 0 ? null : estimate.credits;
    const cost = credits !== null ? `about ${formatCredits(credits)}` : 'its length in credits';
    const ok = await confirm({
      title: `Dub ${job.sourceName} into ${languageName(job.destLang)} again?`,
      body: `The service charges ${cost} again. Same choices as the first time; this dub's files move to previous/ when the new one is done, nothing is deleted.`,
      confirmLabel: credits !== null ? `Dub again (${plural(credits, 'credit')})` : 'Dub again (charged)',
      danger: false,
    });
    if (!ok) return;
    const added = await bridge.dubAgain({ ids: [job.id] });
    notify(
      'info',
      `Queued ${job.sourceName} → ${job.destLang} again (${plural(added.added.length + added.retried.length, 'job')}).`,
    );
  });
  return (
    <button type="button" onClick={run} disabled={busy}>
      Dub again…
    </button>
  );
}

/**
 * The dub judged again against the other loudness target, from what its QC measured: nothing is read
 * again or charged, so it asks nothing first. Offered where the loudness is what the check found wrong,
 * and the dub is near the other target (as QC's words offer it).
 */
export const offersOtherTarget = (qc: Qc) =>
  qc.problems.some((p) => p.code === 'loudness') &&
  qc.loudness.integrated !== null &&
  nearLoudnessTarget(qc.loudness.integrated, OTHER_LOUDNESS_TARGET[qc.target.name]);

export function JudgeAgainst({ job, qc }: { job: JobView; qc: Qc }) {
  const bridge = useBridge();
  const notify = useApp((s) => s.notify);
  const other = OTHER_LOUDNESS_TARGET[qc.target.name];
  const target = LOUDNESS_TARGETS[other];
  const { busy, run } = useBusyAction(async () => {
    const r = await bridge.judgeQc({ ids: [job.id], loudness: other });
    const refused = r.skipped[0]?.error;
    if (refused) throw refused;
    notify(
      'info',
      `${job.sourceName} → ${job.destLang}: judged against the ${other} target (${target.lufs} LUFS); nothing was charged.`,
    );
  });
  return (
    <button
      type="button"
      onClick={run}
      disabled={busy}
      title={`Judge this dub's loudness against ${target.label} (${target.lufs} LUFS ±${target.tolerance}) from what was measured; nothing is charged`}
    >
      Check against the {other} target
    </button>
  );
}

/** Package now: the source's finished languages in one file, made here at once (nothing is charged). */
export function PackageNow({ job }: { job: JobView }) {
  const bridge = useBridge();
  const notify = useApp((s) => s.notify);
  // Empty: the batch's choice (else MKV). A format one source refuses (a turned picture in MKV) is picked here.
  const [format, setFormat] = useState<'' | 'mkv' | 'mp4'>('');
  const { busy, run } = useBusyAction(async () => {
    const p = await bridge.packageNow({ source: job.source, ...(format ? { format } : {}) });
    notify(
      'info',
      `${job.sourceName}: the ${p.format.toUpperCase()} with every finished language is being made.`,
    );
  });
  if (job.state !== 'completed' || job.sourceKind !== 'file') return null;
  return (
    <span className="package-now">
      <button
        type="button"
        onClick={run}
        disabled={busy}
        title="One file with the picture, the original sound and every finished dub; nothing is charged"
      >
        Package now
      </button>
      <label>
        <span className="visually-hidden">Package as</span>
        <select value={format} onChange={(e) => setFormat(e.target.value as typeof format)}>
          <option value="">as the batch chose</option>
          <option value="mkv">as MKV</option>
          <option value="mp4">as MP4</option>
        </select>
      </label>
    </span>
  );
}
