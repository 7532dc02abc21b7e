/**
 * Sizes in binary units, labelled as such (1 MiB = 1,048,576 bytes), one decimal under 10 ("1.5 MiB",
 * "38 MiB"): every face (window, tray, CLI, serve) and the engine's messages say sizes through this.
 */
export function formatBytes(n: number): string {
  if (n < 1024) return `${Math.round(n)} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let i = -1;
  do {
    v /= 1024;
    i++;
  } while (v >= 1024 && i < units.length - 1);
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}

/** A transfer's speed: "3.5 MiB/s". */
export function formatSpeed(bytesPerSecond: number): string {
  return `${formatBytes(Math.round(bytesPerSecond))}/s`;
}

/** "1 job", "2 jobs", "1,200 jobs": a count with its noun in the right form, the same in every face. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/**
 * A media length as it is billed: whole seconds rounded up, as a clock ("0:46" for 45.035 s, which costs 46
 * credits a language), so the length shown and the credits beside it agree in every face.
 */
export function formatLength(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds - 1e-9));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const r = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${r}` : `${m}:${r}`;
}

/** A message as a sentence: the contract's words carry no closing stop, a face adds it. */
export function sentence(message: string): string {
  return /[.!?]$/.test(message) ? message : `${message}.`;
}

/** A message, then the sentence that follows it (a remedy, a hint). */
export function thenSay(message: string, next: string): string {
  return `${sentence(message)} ${next}`;
}
