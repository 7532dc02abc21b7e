import { formatCredits } from '../format';
import type { SpendLine } from '../../../shared/contract/spending';

const HEIGHT = 120;
const BAR = 18;
const GAP = 6;

/** Credits per day or month as bars, oldest on the left; each bar names its period and credits. */
export function SpendChart({ lines, by }: { lines: readonly SpendLine[]; by: 'day' | 'month' }) {
  const shown = lines.slice(-60);
  const most = Math.max(1, ...shown.map((l) => l.credits));
  const width = shown.length * (BAR + GAP);
  return (
    <figure className="spend-chart">
      <svg
        role="img"
        aria-label={`Credits per ${by}: ${shown.map((l) => `${l.key} ${l.credits}`).join(', ')}`}
        viewBox={`0 0 ${Math.max(width, 1)} ${HEIGHT + 18}`}
        width={Math.max(width, 1)}
        height={HEIGHT + 18}
      >
        {shown.map((l, i) => {
          const h = Math.max(2, Math.round((l.credits / most) * HEIGHT));
          return (
            <g key={l.key} transform={`translate(${i * (BAR + GAP)},0)`}>
              <title>{`${l.key}: ${formatCredits(l.credits)} credits, ${l.jobs} jobs`}</title>
              <rect className="spend-bar" x={0} y={HEIGHT - h} width={BAR} height={h} rx={2} />
              <text className="spend-tick" x={BAR / 2} y={HEIGHT + 14} textAnchor="middle">
                {by === 'day' ? l.key.slice(8) : l.key.slice(5)}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption>
        Credits per {by}
        {lines.length > shown.length ? ` (the last ${shown.length})` : ''}; the most in one {by}:{' '}
        <span className="num">{formatCredits(most)}</span>
      </figcaption>
    </figure>
  );
}
