import { useEffect, useState } from 'react';
import { pageHidden } from '../page-visibility';

/** The time, ticking every `ms` while mounted and the window is shown (for "retrying in 30 s", "5 min ago"). */
export function useNow(ms = 1000, active = true): number {
  const [now, setNow] = useState(() => Date.now());
  const [hidden, setHidden] = useState(pageHidden);
  useEffect(() => {
    if (typeof document === 'undefined') return;
    const changed = () => setHidden(pageHidden());
    document.addEventListener('visibilitychange', changed);
    return () => document.removeEventListener('visibilitychange', changed);
  }, []);
  useEffect(() => {
    if (!active || hidden) return;
    setNow(Date.now());
    const t = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(t);
  }, [ms, active, hidden]);
  return now;
}
