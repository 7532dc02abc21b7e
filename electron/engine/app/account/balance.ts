/**
 * After a job ended (charged, failed or canceled), the balance is asked again, but at most this often. Until
 * it is, the charge stays in "committed" (CreditAnchor): a done job counted there should not last long.
 */
const AFTER_CHANGE_MS = 2000;
/** Otherwise a shown balance is asked again when it is older than this (and someone looks at it). */
const IDLE_REFRESH_MS = 60_000;
/** A balance nobody could read yet is asked again after this, twice as long each time, up to the idle refresh. */
const UNKNOWN_RETRY_MS = 2000;

/**
 * The balance the service last told (its `seconds`), never one worked out here, and when to ask again:
 * when nobody has yet, after each job that ended (a charge, or a failure the service may have charged), and
 * once a minute otherwise. One request at a time, at most one per few seconds: a batch of a thousand
 * completions asks a handful of times, and the last one is always followed by a fresh read.
 */
export class BalanceCache {
  private current: number | null = null;
  private readAt = 0;
  /** A job ended since the balance was read: it is asked again. */
  private stale = false;
  private asking = false;
  private askedAt = 0;
  private timer: NodeJS.Timeout | null = null;
  private unknownRetryMs = UNKNOWN_RETRY_MS;
  private closed = false;
  private readonly listeners = new Set<() => void>();
  private readonly forgetting = new Set<() => void>();

  /** `ask` reads the balance from the service (and calls `heard` with it); false when it cannot now. */
  constructor(private readonly ask: () => Promise<unknown> | false) {}

  get value(): number | null {
    return this.current;
  }

  /** The service said the balance is `seconds` (whoever asked): the faces are told when it moved. */
  heard(seconds: number): void {
    const moved = seconds !== this.current;
    this.current = seconds;
    this.readAt = Date.now();
    this.unknownRetryMs = UNKNOWN_RETRY_MS;
    if (moved) for (const l of this.listeners) l();
  }

  /** Runs `listener` whenever the balance read from the service changed, or was forgotten. */
  onChange(listener: () => void): void {
    this.listeners.add(listener);
  }

  /** A job was charged, failed or was canceled: the balance is asked again (now, or when the pause is over). */
  charged(): void {
    this.stale = true;
    this.refreshIfDue();
  }

  /** Runs `listener` when the balance is forgotten (another service or key). */
  onForget(listener: () => void): void {
    this.forgetting.add(listener);
  }

  /** Another service (or key) has another balance: the old one must not show, the new one is asked. */
  forget(): void {
    this.current = null;
    this.readAt = 0;
    this.askedAt = 0;
    for (const l of this.forgetting) l();
    // Told even when none was known: whoever shows it asks the new service.
    for (const l of this.listeners) l();
  }

  /** Asks when it is wanted and the last ask is far enough behind; else comes back when it will be. */
  refreshIfDue(): void {
    if (this.closed || this.asking) return;
    const wanted = this.current === null || this.stale || Date.now() - this.readAt > IDLE_REFRESH_MS;
    if (!wanted) return;
    const wait = this.askedAt + AFTER_CHANGE_MS - Date.now();
    if (wait > 0) {
      // A job that ended, or a balance not known yet, comes back by itself: an idle refresh waits for a look.
      if (this.stale || this.current === null) this.askAgainIn(wait);
      return;
    }
    const asked = this.ask();
    if (asked === false) return;
    this.asking = true;
    this.stale = false;
    this.askedAt = Date.now();
    void asked
      .catch(() => {})
      .finally(() => {
        this.asking = false;
        // A job that ended while this ask was on its way is not covered by its answer.
        if (this.stale) this.refreshIfDue();
        // A read that failed leaves the header without a balance, and an idle window does not look again.
        else if (this.current === null) this.askUnknownAgain();
      });
  }

  private askUnknownAgain(): void {
    this.askAgainIn(this.unknownRetryMs);
    this.unknownRetryMs = Math.min(this.unknownRetryMs * 2, IDLE_REFRESH_MS);
  }

  private askAgainIn(ms: number): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.refreshIfDue();
    }, ms);
    this.timer.unref?.();
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
