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
import { asError } from '../store/errors';

/** What a verdict is called, and its mark (the chip shows the mark of a dub that does not pass). */
export const QC_WORDS = { pass: 'QC passed', warn: 'QC: worth a look', fail: 'QC failed' } as const;
export const QC_MARK = { pass: '', warn: '!', fail: '⚠' } as const;

const signed = (n: number, digits: number) =>
  `${n > 0 ? '+' : n < 0 ? '−' : ''}${Math.abs(n).toFixed(digits)}`;

function Figures({ qc }: { qc: Qc }) {
  const target = LOUDNESS_TARGETS[qc.target.name];
  return (
    <dl className="facts qc-figures">
      <dt>Length</dt>
      <dd className="num">
        {qc.durationDelta === null ? '—' : `${signed(qc.durationDelta, 2)} s against the source`}
      </dd>
      <dt>Loudness</dt>
      <dd className="num">
        {qc.loudness.integrated === null ? 'silent' : `${qc.loudness.integrated.toFixed(1)} LUFS`}
        <span className="muted">
          {' '}
          · target {qc.target.lufs} LUFS ±{qc.target.tolerance}, {target.label}
        </span>
      </dd>
      {qc.loudness.source != null && (
        <>
          <dt>Source loudness</dt>
          <dd className="num">{qc.loudness.source.toFixed(1)} LUFS</dd>
        </>
      )}
      <dt>True peak</dt>
      <dd className="num">
        {qc.loudness.truePeak === null ? '—' : `${signed(qc.loudness.truePeak, 1)} dBTP`}
      </dd>
    </dl>
  );
}

/** Dubs this source into this language again: the estimate first, then a confirm with its cost. */
function DubAgain({ job }: { job: JobView }) {
  const bridge = useBridge();
  const confirm = useApp((s) => s.confirm);
  const notify = useApp((s) => s.notify);
  const [busy, setBusy] = useState(false);
  const request = {
    inputs: [job.source],
    to: [job.destLang],
    from: job.sourceLang,
    studio: job.studio,
    api: job.api,
    outDir: job.outDir,
  };
  const go = async () => {
    setBusy(true);
    try {
      // What this language costs again: its own length (the batch's estimate calls it already dubbed, free).
      const credits = job.estimatedCredits ?? job.creditsCharged;
      const cost = credits !== null ? `about ${formatCredits(credits)}` : 'its length in credits';
      const ok = await confirm({
        title: `Dub ${job.sourceName} into ${languageName(job.destLang)} again?`,
        body: `The service charges ${cost} again. This dub's files move to previous/ beside the new ones when it is done; nothing is deleted.`,
        confirmLabel: credits !== null ? `Dub again (${plural(credits, 'credit')})` : 'Dub again (charged)',
        danger: false,
      });
      if (!ok) return;
      const added = await bridge.add({ ...request, again: true });
      notify(
        'info',
        `Queued ${job.sourceName} → ${job.destLang} again (${plural(added.added.length + added.retried.length, 'job')}).`,
      );
    } catch (e) {
      notify('error', asError(e).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <button type="button" onClick={() => void go()} disabled={busy}>
      Dub again…
    </button>
  );
}

/**
 * The dub judged again against the other loudness target, from what its QC measured: nothing is read
 * again or charged, so it asks nothing first. Offered where the loudness is what the check found wrong,
 * and the dub is near the other target (as QC's words offer it).
 */
const offersOtherTarget = (qc: Qc) =>
  qc.problems.some((p) => p.code === 'loudness') &&
  qc.loudness.integrated !== null &&
  nearLoudnessTarget(qc.loudness.integrated, OTHER_LOUDNESS_TARGET[qc.target.name]);

function JudgeAgainst({ job, qc }: { job: JobView; qc: Qc }) {
  const bridge = useBridge();
  const notify = useApp((s) => s.notify);
  const [busy, setBusy] = useState(false);
  const other = OTHER_LOUDNESS_TARGET[qc.target.name];
  const target = LOUDNESS_TARGETS[other];
  const go = async () => {
    setBusy(true);
    try {
      const r = await bridge.judgeQc({ ids: [job.id], loudness: other });
      const refused = r.skipped[0]?.error;
      if (refused) notify('error', `${refused.message}. ${refused.remedy ?? ''}`);
      else
        notify(
          'info',
          `${job.sourceName} → ${job.destLang}: judged against the ${other} target (${target.lufs} LUFS); nothing was charged.`,
        );
    } catch (e) {
      notify('error', asError(e).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <button
      type="button"
      onClick={() => void go()}
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
  const [busy, setBusy] = useState(false);
  if (job.state !== 'completed' || job.sourceKind !== 'file') return null;
  const go = async () => {
    setBusy(true);
    try {
      const p = await bridge.packageNow({ source: job.source });
      notify(
        'info',
        `${job.sourceName}: the ${p.format.toUpperCase()} with every finished language is being made.`,
      );
    } catch (e) {
      notify('error', asError(e).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <button
      type="button"
      onClick={() => void go()}
      disabled={busy}
      title="One file with the picture, the original sound and every finished dub; nothing is charged"
    >
      Package now
    </button>
  );
}

/** The job panel's QC: the verdict, the figures, each problem with what to do. Nothing is hidden by it. */
export function QcSection({ job }: { job: JobView }) {
  if (job.state !== 'completed') return null;
  const qc = job.qc ?? null;
  return (
    <section className="qc" aria-labelledby={`qc-${job.id}`}>
      <h3 id={`qc-${job.id}`}>Quality check</h3>
      {qc === null ? (
        <p className="muted">Checking the downloaded files…</p>
      ) : (
        <>
          <p className={`qc-verdict qc-${qc.verdict}`}>
            {QC_MARK[qc.verdict] && <span aria-hidden="true">{QC_MARK[qc.verdict]} </span>}
            {QC_WORDS[qc.verdict]}
            {qc.problems.length > 0 && (
              <span className="muted"> · {plural(qc.problems.length, 'problem')}</span>
            )}
          </p>
          <Figures qc={qc} />
          {qc.problems.length > 0 && (
            <ul className="qc-problems">
              {qc.problems.map((p, i) => (
                <li key={i} className={`qc-problem qc-${p.severity}`}>
                  <span className="qc-severity">{p.severity === 'fail' ? 'Fails' : 'Check'}</span>{' '}
                  <span>{p.message}.</span> <span className="remedy">{p.remedy}</span>
                </li>
              ))}
            </ul>
          )}
          {(offersOtherTarget(qc) || qc.problems.some((p) => !p.asSource)) && (
            <div className="panel-actions">
              {offersOtherTarget(qc) && <JudgeAgainst job={job} qc={qc} />}
              {qc.problems.some((p) => !p.asSource) && <DubAgain job={job} />}
            </div>
          )}
        </>
      )}
    </section>
  );
}
