import { useEffect, useMemo, useState } from 'react';
import { groupSpending, localTime, totalCredits, type SpendGroup } from '../../../shared/contract/spending';
import { spendLinesCsv, spendRowsCsv } from '../../../shared/spending-csv';
import { SpendChart } from '../components/SpendChart';
import { formatCount, formatCredits } from '../format';
import { useApp } from '../store';

const GROUPS: { value: SpendGroup; label: string }[] = [
  { value: 'job', label: 'Job' },
  { value: 'day', label: 'Day' },
  { value: 'month', label: 'Month' },
  { value: 'batch', label: 'Batch' },
  { value: 'folder', label: 'Folder' },
  { value: 'language', label: 'Language' },
];

/** Saves `text` as a file through the browser's own download (the window and the browser alike). */
function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Past this share of the budget the bar warns. */
const NEAR_BUDGET = 0.8;

function Budget() {
  const budget = useApp((s) => s.spending?.budget ?? null);
  if (!budget) return <p className="hint">No monthly budget is set (Settings → Spending).</p>;
  const used = budget.spentThisMonth + budget.committed;
  const over = used > budget.credits;
  // A budget of 0 still draws a bar (a meter's max must be above its min).
  const full = Math.max(budget.credits, 1);
  return (
    <div className={`budget ${over ? 'over' : ''}`}>
      <p>
        This month: <span className="num">{formatCredits(budget.spentThisMonth)}</span> spent,{' '}
        <span className="num">{formatCredits(budget.committed)}</span> queued, of a budget of{' '}
        <span className="num">{formatCredits(budget.credits)}</span>
        {over ? ` (${formatCredits(used - budget.credits)} over)` : ''}.
      </p>
      <meter
        min={0}
        max={full}
        value={Math.min(used, full)}
        // Less is better: green below 80%, amber from there, red once the budget is used up or passed.
        optimum={0}
        low={full * NEAR_BUDGET}
        high={full * (1 - 1e-9)}
        aria-label="Budget used"
        aria-valuetext={over ? `over budget by ${formatCredits(used - budget.credits)}` : undefined}
      />
    </div>
  );
}

/** What the service charged: a table by job or grouped, a chart per day or month, and CSV to take away. */
export function SpendingScreen() {
  const spending = useApp((s) => s.spending);
  const error = useApp((s) => s.spendingError);
  const load = useApp((s) => s.loadSpending);
  const jobsEnded = useApp((s) => s.totals?.creditsCharged ?? 0);
  const [by, setBy] = useState<SpendGroup>('job');
  const [chartBy, setChartBy] = useState<'day' | 'month'>('day');
  // Read again whenever the queue's charges move.
  useEffect(() => void load(), [load, jobsEnded]);
  const rows = useMemo(() => spending?.rows ?? [], [spending]);
  const lines = useMemo(() => (by === 'job' ? [] : groupSpending(rows, by)), [rows, by]);
  const chart = useMemo(() => groupSpending(rows, chartBy), [rows, chartBy]);
  const exportCsv = () =>
    download(`dubdesk-spending-${by}.csv`, by === 'job' ? spendRowsCsv(rows) : spendLinesCsv(lines, by));

  return (
    <section className="spending" aria-labelledby="spending-title">
      <div className="spending-head">
        <h1 id="spending-title">Spending</h1>
        <p className="spending-total">
          <span className="num">{formatCredits(totalCredits(rows))}</span> charged for{' '}
          <span className="num">{formatCount(rows.length)}</span> dubs
        </p>
        <button type="button" onClick={exportCsv} disabled={rows.length === 0}>
          Export CSV…
        </button>
      </div>
      {error && <p className="error-text">{error.message}</p>}
      <Budget />
      {rows.length > 0 && (
        <div className="spend-chart-box">
          <div className="segmented" role="radiogroup" aria-label="Chart per">
            {(['day', 'month'] as const).map((v) => (
              <button
                key={v}
                type="button"
                role="radio"
                aria-checked={chartBy === v}
                onClick={() => setChartBy(v)}
              >
                Per {v}
              </button>
            ))}
          </div>
          <SpendChart lines={chart} by={chartBy} />
        </div>
      )}
      <div className="segmented" role="radiogroup" aria-label="Group the table by">
        {GROUPS.map((g) => (
          <button
            key={g.value}
            type="button"
            role="radio"
            aria-checked={by === g.value}
            onClick={() => setBy(g.value)}
          >
            {g.label}
          </button>
        ))}
      </div>
      {rows.length === 0 ? (
        <p className="queue-empty-title">
          Nothing charged yet: dubs are charged when the service completes them.
        </p>
      ) : (
        <div className="spend-table-box">
          <table className="spend-table">
            <thead>
              {by === 'job' ? (
                <tr>
                  <th scope="col">Date</th>
                  <th scope="col">File</th>
                  <th scope="col">Language</th>
                  <th scope="col" className="num">
                    Credits
                  </th>
                </tr>
              ) : (
                <tr>
                  <th scope="col">{GROUPS.find((g) => g.value === by)?.label}</th>
                  <th scope="col" className="num">
                    Dubs
                  </th>
                  <th scope="col" className="num">
                    Credits
                  </th>
                </tr>
              )}
            </thead>
            <tbody>
              {by === 'job'
                ? [...rows].reverse().map((r) => (
                    <tr key={r.jobId}>
                      <td className="date">{localTime(r.chargedAt)}</td>
                      <td title={r.source}>{r.sourceName}</td>
                      <td>{r.language}</td>
                      <td className="num">
                        {formatCredits(r.credits)}
                        {r.studio ? ' (studio)' : ''}
                      </td>
                    </tr>
                  ))
                : lines.map((l) => (
                    <tr key={l.key}>
                      <td title={l.key}>{l.key}</td>
                      <td className="num">{formatCount(l.jobs)}</td>
                      <td className="num">{formatCredits(l.credits)}</td>
                    </tr>
                  ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
