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
 * left only when it fires, so a busy stream costs a clock read per chunk; a timer that fires late (a tab in
 * the background, a machine waking from sleep) still compares with the clock.
 */
export function silenceWatch(ms: number, silent: () => void): SilenceWatch {
  let lastHeardAt = Date.now();
  let timer: ReturnType<typeof setTimeout> | null = null;
  const arm = (wait: number) => {
    timer = setTimeout(() => {
      const quiet = Date.now() - lastHeardAt;
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
