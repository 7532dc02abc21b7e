/** One credit is one second of output; studio quality costs double; billing rounds each dub up. */
export function creditsFor(durationSeconds: number, studio: boolean): number {
  return Math.ceil(durationSeconds) * (studio ? 2 : 1);
}

export interface EstimateLine {
  durationSeconds: number | null;
  studio: boolean;
}

/** Sum over jobs; jobs of unknown length (URL sources) are counted apart, not guessed. */
export function estimateCredits(lines: readonly EstimateLine[]): { credits: number; unknown: number } {
  let credits = 0;
  let unknown = 0;
  for (const l of lines) {
    if (l.durationSeconds === null) unknown++;
    else credits += creditsFor(l.durationSeconds, l.studio);
  }
  return { credits, unknown };
}
