import { useEffect, useState } from 'react';

/** The time, ticking every `ms` while mounted (for "retrying in 30 s" and "5 min ago"). */
export function useNow(ms = 1000, active = true): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(t);
  }, [ms, active]);
  return now;
}
