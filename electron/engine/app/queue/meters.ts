import type { PublishedTransfer } from '../../db/published-rates';
import type { Transfer } from './views';

interface Meter {
  lastAt: number;
  lastBytes: number;
  rate: number | null;
  percent: number | null;
  eta: number | null;
  total: number | null;
  transferred: number;
  emittedAt: number;
}

/** Speed (a moving average) and time left of each running transfer; says when a job event is due. */
export class TransferMeters {
  private readonly meters = new Map<number, Meter>();

  /** Records progress; true when this change deserves an event (at most four a second per job, and the end). */
  update(id: number, transferred: number, total: number | null, now = Date.now()): boolean {
    let m = this.meters.get(id);
    if (!m || transferred < m.lastBytes) {
      m = {
        lastAt: now,
        lastBytes: transferred,
        rate: null,
        percent: null,
        eta: null,
        total,
        transferred,
        emittedAt: 0,
      };
      this.meters.set(id, m);
    }
    const dt = (now - m.lastAt) / 1000;
    if (dt >= 0.2) {
      const instant = (transferred - m.lastBytes) / dt;
      m.rate = m.rate === null ? instant : m.rate * 0.7 + instant * 0.3;
      m.lastAt = now;
      m.lastBytes = transferred;
    }
    m.total = total;
    m.transferred = transferred;
    m.percent = total ? Math.min(100, Math.round((transferred / total) * 1000) / 10) : null;
    m.eta = total && m.rate ? Math.max(0, Math.round((total - transferred) / m.rate)) : null;
    if (now - m.emittedAt >= 250 || (total !== null && transferred >= total)) {
      m.emittedAt = now;
      return true;
    }
    return false;
  }

  get(id: number): Transfer | undefined {
    const m = this.meters.get(id);
    return m ? { bytesPerSecond: m.rate, etaSeconds: m.eta, percent: m.percent } : undefined;
  }

  /** False when the job had no meter. */
  forget(id: number): boolean {
    return this.meters.delete(id);
  }

  /** Every running transfer, as another process is told of it (`RatesPublisher`). */
  snapshot(): PublishedTransfer[] {
    return [...this.meters].map(([id, m]) => ({
      id,
      bytesPerSecond: m.rate === null ? null : Math.round(m.rate),
      etaSeconds: m.eta,
      percent: m.percent,
    }));
  }

  get size(): number {
    return this.meters.size;
  }

  overall(): Overall {
    return overallOf([...this.meters.values()].map((m) => ({ bytesPerSecond: m.rate, etaSeconds: m.eta })));
  }
}

/** All transfers together: bytes a second, and the time until the slowest one ends. */
export interface Overall {
  bytesPerSecond: number | null;
  etaSeconds: number | null;
}

export function overallOf(transfers: Iterable<Pick<Transfer, 'bytesPerSecond' | 'etaSeconds'>>): Overall {
  let rate = 0;
  let any = false;
  let eta: number | null = null;
  for (const t of transfers) {
    if (t.bytesPerSecond === null) continue;
    any = true;
    rate += t.bytesPerSecond;
    if (t.etaSeconds !== null) eta = Math.max(eta ?? 0, t.etaSeconds);
  }
  return { bytesPerSecond: any ? rate : null, etaSeconds: eta };
}
