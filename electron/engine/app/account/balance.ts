/** The balance is asked again after a charge at most this often (it also comes with every estimate). */
const BALANCE_REFRESH_MS = 5000;

/**
 * The last balance the service told, and when to ask again: when nobody has yet (an idle queue), and after
 * dubs were charged, at most every few seconds and one request at a time.
 */
export class BalanceCache {
  value: number | null = null;
  /** A dub was charged since the balance was read: it is asked again. */
  private stale = false;
  private asking = false;
  private askedAt = 0;

  charged(): void {
    this.stale = true;
  }

  /** Another service (or key) has another balance: the old one must not show, the new one is asked. */
  forget(): void {
    this.value = null;
    this.askedAt = 0;
  }

  /** Asks with `ask` (which stores the value) when due; `fresh` runs once a new value is in. */
  refreshIfDue(ask: () => Promise<unknown>, fresh: () => void): void {
    const wanted = this.value === null || this.stale;
    const due = wanted && Date.now() - this.askedAt > BALANCE_REFRESH_MS;
    if (!due || this.asking) return;
    this.asking = true;
    this.stale = false;
    this.askedAt = Date.now();
    void ask()
      .then(fresh, () => {})
      .finally(() => (this.asking = false));
  }
}
