/** The window's size and place, remembered in a small JSON file of the app's data folder. */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

const Int = z.number().int().min(-100_000).max(100_000);
const StateSchema = z.object({
  x: Int.optional(),
  y: Int.optional(),
  width: z.number().int().min(200).max(20_000),
  height: z.number().int().min(150).max(20_000),
  maximized: z.boolean().default(false),
});
export type WindowBounds = z.infer<typeof StateSchema>;

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const DEFAULT_BOUNDS: WindowBounds = { width: 1200, height: 780, maximized: false };
export const stateFile = (dir: string) => join(dir, 'window-state.json');

/** How much of the window (its top strip, where it is grabbed) must be on a screen to be reachable. */
const GRAB_WIDTH = 120;
const GRAB_HEIGHT = 40;

function overlap(a: Rect, b: Rect): { width: number; height: number } {
  return {
    width: Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x),
    height: Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y),
  };
}

/**
 * Bounds that fit the screens there are now: a window whose top strip is on no screen (a monitor was
 * unplugged) goes to the middle of the primary screen; one larger than the screen is made to fit it.
 */
export function fitToScreens(bounds: WindowBounds, workAreas: readonly Rect[]): WindowBounds {
  const primary = workAreas[0];
  if (!primary) return bounds;
  const width = Math.min(bounds.width, primary.width);
  const height = Math.min(bounds.height, primary.height);
  if (bounds.x !== undefined && bounds.y !== undefined) {
    const strip = { x: bounds.x, y: bounds.y, width: bounds.width, height: GRAB_HEIGHT };
    const reachable = workAreas.some((area) => {
      const o = overlap(strip, area);
      return o.width >= Math.min(GRAB_WIDTH, bounds.width) && o.height >= GRAB_HEIGHT / 2;
    });
    if (reachable) return bounds;
  }
  return {
    ...bounds,
    width,
    height,
    x: primary.x + Math.round((primary.width - width) / 2),
    y: primary.y + Math.round((primary.height - height) / 2),
  };
}

/** The remembered bounds, or the defaults when the file is missing or damaged. */
export function loadWindowState(dir: string, workAreas: readonly Rect[]): WindowBounds {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(stateFile(dir), 'utf8'));
  } catch {
    return fitToScreens(DEFAULT_BOUNDS, workAreas);
  }
  const parsed = StateSchema.safeParse(raw);
  return fitToScreens(parsed.success ? parsed.data : DEFAULT_BOUNDS, workAreas);
}

export function saveWindowState(dir: string, state: WindowBounds): void {
  const file = stateFile(dir);
  const checked = StateSchema.parse(state);
  writeFileSync(`${file}.tmp`, `${JSON.stringify(checked)}\n`, { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
}

/** What a window's state is now (its normal bounds even while maximized). */
export function boundsOf(win: { getNormalBounds(): Rect; isMaximized(): boolean }): WindowBounds {
  const b = win.getNormalBounds();
  return {
    x: Math.round(b.x),
    y: Math.round(b.y),
    width: Math.round(b.width),
    height: Math.round(b.height),
    maximized: win.isMaximized(),
  };
}
