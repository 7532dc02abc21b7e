import { useEffect, useRef, useState } from 'react';
import type { JobDetail, JobView, LogLine } from '../../../shared/contract/jobs';
import { isTerminal, jobFiles } from '../../../shared/contract/jobs';
import { languageName } from '../../../shared/languages';
import { baseName, formatBytes, formatCredits, formatTime } from '../format';
import { useApp, useBridge } from '../store';
import { asError } from '../store/errors';
import { CHIP_SYMBOL, chipKind, stateWords, waitingWords } from '../store/derived';
import { loadedJob } from '../store/rows';
import { ErrorText } from './ErrorText';
import { Preview } from './Preview';
import { PackageNow } from './QcActions';
import { QcSection } from './QcSection';
import { RetryElsewhere } from './RetryElsewhere';
import { useNow } from './useNow';

function Files({ job }: { job: JobView }) {
  const bridge = useBridge();
  const notify = useApp((s) => s.notify);
  if (job.outputs.length === 0) return <p className="muted">No file yet.</p>;
  const run = (p: Promise<void>) => p.catch((e: unknown) => notify('error', asError(e).message));
  // Each file once (two output types may be one file); `i` stays its index in the job's outputs.
  const once = new Set(jobFiles(job.outputs));
  return (
    <ul className="file-list">
      {job.outputs.map((o, i) =>
        !once.has(o) ? null : (
          <li key={o.path}>
            <span className="file-name" title={o.path}>
              {baseName(o.path)}
            </span>
            <span className="muted num">{formatBytes(o.bytes)}</span>
            {bridge.canReveal && (
              <span className="file-actions">
                <button type="button" className="small" onClick={() => void run(bridge.openPath(o.path))}>
                  Open
                </button>
                <button type="button" className="small" onClick={() => void run(bridge.showInFolder(o.path))}>
                  Show in folder
                </button>
              </span>
            )}
            {!bridge.canReveal && bridge.downloadUrl && (
              <span className="file-actions">
                <a
                  className="button small"
                  href={bridge.downloadUrl(job.id, i)}
                  download={baseName(o.path)}
                  aria-label={`Download ${baseName(o.path)}`}
                  // The address is made again at the click: a panel left open keeps a current media token.
                  onClick={(e) => {
                    if (bridge.downloadUrl) e.currentTarget.href = bridge.downloadUrl(job.id, i);
                  }}
                >
                  Download
                </a>
              </span>
            )}
          </li>
        ),
      )}
    </ul>
  );
}

function Log({ id }: { id: number }) {
  const bridge = useBridge();
  const [lines, setLines] = useState<LogLine[] | null>(null);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (!open) return;
    let live = true;
    bridge
      .jobLog({ id, limit: 200 })
      .then((r) => live && setLines(r.lines))
      .catch(() => live && setLines([]));
    return () => {
      live = false;
    };
  }, [bridge, id, open]);
  return (
    <details onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Log</summary>
      {lines === null ? (
        <p className="muted">Reading…</p>
      ) : lines.length === 0 ? (
        <p className="muted">Nothing logged for this job.</p>
      ) : (
        <ol className="log-lines">
          {lines.map((l, i) => (
            <li key={i} className={`log-${l.level}`}>
              <time className="num">{formatTime(l.at)}</time> {l.message}
            </li>
          ))}
        </ol>
      )}
    </details>
  );
}

/** The job a chip opened: state, what to do, preview, credits, files, history and log. */
export function JobPanel() {
  const bridge = useBridge();
  const id = useApp((s) => s.openJobId);
  const live = useApp((s) => (s.openJobId === null ? null : loadedJob(s.pages, s.openJobId)));
  const openJob = useApp((s) => s.openJob);
  const bulk = useApp((s) => s.bulk);
  const [detail, setDetail] = useState<JobDetail | null>(null);
  const [error, setError] = useState<ReturnType<typeof asError> | null>(null);
  const now = useNow(1000, live?.waiting?.retryAt != null);

  const version = live ? `${live.state}:${live.updatedAt}` : '';
  useEffect(() => {
    if (id === null) return;
    let current = true;
    bridge
      .getJob({ id })
      .then((d) => {
        if (current) {
          setDetail(d);
          setError(null);
        }
      })
      .catch((e: unknown) => current && setError(asError(e)));
    return () => {
      current = false;
    };
    // The detail is fetched again when the job moves on (its state or update time changes).
  }, [bridge, id, version]);

  // Opening moves focus into the panel (at narrow widths it covers the queue); closing gives it back to
  // where it was, so a keyboard user goes on from the chip they opened.
  const panel = useRef<HTMLElement>(null);
  const openedFrom = useRef<HTMLElement | null>(null);
  const isOpen = id !== null;
  useEffect(() => {
    if (!isOpen) return;
    openedFrom.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    panel.current?.focus();
    return () => {
      const back = openedFrom.current;
      if (back?.isConnected) back.focus();
    };
  }, [isOpen]);

  if (id === null) return null;
  const job: JobView | null = live ?? (detail?.id === id ? detail : null);
  const history = detail?.id === id ? detail.history : [];
  const close = () => openJob(null);

  return (
    <aside
      className="job-panel"
      aria-labelledby="job-panel-title"
      ref={panel}
      tabIndex={-1}
      onKeyDown={(e) => {
        if (e.key !== 'Escape' || e.defaultPrevented) return;
        e.preventDefault();
        close();
      }}
    >
      <header className="panel-head">
        <h2 id="job-panel-title">
          {job ? (
            <>
              <span className="panel-source" title={job.source}>
                {job.sourceName}
              </span>
              <span className="panel-lang">→ {languageName(job.destLang)}</span>
            </>
          ) : (
            'Job'
          )}
        </h2>
        <button type="button" className="icon-button" aria-label="Close job panel" onClick={close}>
          ✕
        </button>
      </header>
      {error && <ErrorText error={error} />}
      {job && (
        <div className="panel-body">
          <p className={`panel-state state-${chipKind(job.state)}`}>
            <span aria-hidden="true">{CHIP_SYMBOL[chipKind(job.state)]} </span>
            {stateWords(job.state)}
            {chipKind(job.state) === 'working' && <span className="num"> · {Math.floor(job.progress)}%</span>}
          </p>
          {job.waiting && <p className="waiting-text num">{waitingWords(job, now)}</p>}
          <ErrorText error={job.state === 'failed' ? job.error : null} />
          <QcSection job={job} />
          <div className="panel-actions">
            {(job.state === 'failed' || job.state === 'canceled') && (
              <button type="button" className="primary" onClick={() => void bulk('retry', [job])}>
                Retry
              </button>
            )}
            {!isTerminal(job.state) && job.state !== 'paused' && (
              <button type="button" onClick={() => void bulk('pause', [job])}>
                Pause
              </button>
            )}
            {job.state === 'paused' && (
              <button type="button" onClick={() => void bulk('resume', [job])}>
                Resume
              </button>
            )}
            {!isTerminal(job.state) && (
              <button type="button" className="danger" onClick={() => void bulk('cancel', [job])}>
                Cancel…
              </button>
            )}
            <PackageNow job={job} />
          </div>
          {(job.state === 'failed' || job.state === 'canceled' || job.state === 'completed') && (
            <RetryElsewhere key={`retry-${job.id}`} job={job} />
          )}
          <Preview key={job.id} job={job} />
          <dl className="facts">
            <dt>Credits</dt>
            <dd className="num">
              estimated {job.estimatedCredits === null ? '—' : formatCredits(job.estimatedCredits)}
              {' · '}charged {job.creditsCharged === null ? '—' : formatCredits(job.creditsCharged)}
            </dd>
            <dt>From</dt>
            <dd>{languageName(job.sourceLang)}</dd>
            {job.audioTrack && (
              <>
                <dt>Audio track</dt>
                <dd>{job.audioTrack === 'first' ? 'The first' : `Track ${job.audioTrack}`}</dd>
              </>
            )}
            <dt>Quality</dt>
            <dd>{job.studio ? 'Studio (2× credits)' : 'Standard'}</dd>
            <dt>API</dt>
            <dd>{job.api}</dd>
            <dt>Saves to</dt>
            <dd className="path" title={job.outDir}>
              {job.outDir}
            </dd>
          </dl>
          <h3>Files</h3>
          <Files job={job} />
          <h3>History</h3>
          <ol className="history">
            {history.map((h, i) => (
              <li key={i}>
                <time className="num">{formatTime(h.at)}</time>{' '}
                <span>
                  {h.from ? `${stateWords(h.from)} → ` : ''}
                  {stateWords(h.to)}
                </span>
                {h.reason && <span className="muted"> — {h.reason}</span>}
              </li>
            ))}
          </ol>
          <Log id={job.id} />
        </div>
      )}
    </aside>
  );
}
