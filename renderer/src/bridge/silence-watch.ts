/** Watches a stream that should never be quiet for long. */
export interface SilenceWatch {
  /** Bytes arrived now. */
  heard(): void;
  stop(): void;
  /** When bytes last arrived (the watch's start until the first). */
  readonly lastHeardAt: number;
}

/**
 * Calls `silent` once when nothing was heard for `ms` (never when `ms` is 0). One timer, re-armed for what is
 * left only when it fires, so a busy stream costs a clock read per chunk. A timer that fires late (a page
 * busy rendering, a tab in the background, a machine waking from sleep) is not taken as silence at once.
 */
export function silenceWatch(ms: number, silent: () => void): SilenceWatch {
  let lastHeardAt = Date.now();
  let timer: ReturnType<typeof setTimeout> | null = null;
  const arm = (wait: number) => {
    const due = Date.now() + wait;
    timer = setTimeout(() => {
      const now = Date.now();
      // Fired late: this side was busy or asleep, and bytes that came meanwhile may not be read yet. One
      // more whole wait: a live stream is heard in it, a dead one (a laptop woken up) is given up after it.
      if (now - due > ms / 2) return arm(ms);
      const quiet = now - lastHeardAt;
      if (quiet >= ms) {
        timer = null;
        silent();
      } else arm(ms - quiet);
    }, wait);
  };
  if (ms > 0) arm(ms);
  return {
    heard: () => {
      lastHeardAt = Date.now();
    },
    stop: () => {
      if (timer) clearTimeout(timer);
      timer = null;
    },
    get lastHeardAt() {
      return lastHeardAt;
    },
  };
}
