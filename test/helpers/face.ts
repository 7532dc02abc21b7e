/**
 * Which face the shared app scenarios (test/e2e) drive: the browser face (`dubdesk serve` in Chromium), or
 * the desktop app under real Electron (test/electron imports the same scenario files after `useFace`).
 * Each test file runs in its own process, so the choice is per file.
 */
export type FaceName = 'web' | 'electron';

let face: FaceName = 'web';

export const currentFace = (): FaceName => face;

export function useFace(name: FaceName): void {
  face = name;
}
