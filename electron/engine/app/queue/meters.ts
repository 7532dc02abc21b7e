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

  forget(id: number): void {
    this.meters.delete(id);
  }

  /** All transfers together: bytes a second, and the time until the slowest one ends. */
  overall(): { bytesPerSecond: number | null; etaSeconds: number | null } {
    let rate = 0;
    let any = false;
    let eta: number | null = null;
    for (const m of this.meters.values()) {
      if (m.rate === null) continue;
      any = true;
      rate += m.rate;
      if (m.eta !== null) eta = Math.max(eta ?? 0, m.eta);
    }
    return { bytesPerSecond: any ? rate : null, etaSeconds: eta };
  }
}
