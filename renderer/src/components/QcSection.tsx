import { LOUDNESS_TARGETS, type Qc } from '../../../shared/contract/deliver';
import type { JobView } from '../../../shared/contract/jobs';
import { plural } from '../../../shared/format';
import { DubAgain, JudgeAgainst, offersOtherTarget } from './QcActions';

/** What a verdict is called, and its mark (the chip shows the mark of a dub that does not pass). */
export const QC_WORDS = { pass: 'QC passed', warn: 'QC: worth a look', fail: 'QC failed' } as const;
export const QC_MARK = { pass: '', warn: '!', fail: '⚠' } as const;

const signed = (n: number, digits: number) =>
  `${n > 0 ? '+' : n < 0 ? '−' : ''}${Math.abs(n).toFixed(digits)}`;

/** "as long as the source", "0.62 s longer than the source": a difference read without a sign to decode. */
function lengthWords(delta: number | null): string {
  if (delta === null) return '—';
  if (Math.abs(delta) < 0.005) return 'as long as the source';
  return `${Math.abs(delta).toFixed(2)} s ${delta > 0 ? 'longer' : 'shorter'} than the source`;
}

function Figures({ qc }: { qc: Qc }) {
  const target = LOUDNESS_TARGETS[qc.target.name];
  return (
    <dl className="facts qc-figures">
      <dt>Length</dt>
      <dd className="num">{lengthWords(qc.durationDelta)}</dd>
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
                  <span>{p.message}.</span> <span className="remedy">{p.remedyInApp ?? p.remedy}</span>
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
