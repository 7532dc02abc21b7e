/** Seconds as a viewer reads a position: `0:07`, `1:02:03.5` (tenths only when they matter). */
export function clock(seconds: number): string {
  const tenths = Math.round(seconds * 10);
  const s = Math.floor(tenths / 10);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const frac = tenths % 10 ? `.${tenths % 10}` : '';
  const mm = h > 0 ? String(m).padStart(2, '0') : String(m);
  return `${h > 0 ? `${h}:` : ''}${mm}:${String(sec).padStart(2, '0')}${frac}`;
}
