import { z } from 'zod';

/** A time of day on the 24-hour clock, as people write it: `22:00`, `7:30`. */
export const ClockTimeSchema = z
  .string()
  .trim()
  .regex(/^([01]?\d|2[0-3]):[0-5]\d$/, 'a time of day such as 22:00 or 7:30')
  .transform((t) => t.padStart(5, '0'));

/**
 * When new work may be sent: from `from` to `to`, local time, every day. `to` before `from` spans midnight
 * (22:00 to 07:00 is the night). Outside it, queued jobs wait (nothing is lost); what is already under way
 * goes on.
 */
export const SendWindowSchema = z
  .object({ from: ClockTimeSchema, to: ClockTimeSchema })
  .strict()
  .refine((w) => w.from !== w.to, { message: 'the window must not start and end at the same time' });
export type SendWindow = z.output<typeof SendWindowSchema>;

const minutesOf = (time: string): number => {
  const [h, m] = time.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
};

/** Whether `at` falls inside the window, by the clock on the wall where Dubdesk runs (its time zone). */
export function inSendWindow(window: SendWindow, at: Date): boolean {
  const now = at.getHours() * 60 + at.getMinutes();
  const from = minutesOf(window.from);
  const to = minutesOf(window.to);
  return from < to ? now >= from && now < to : now >= from || now < to;
}

/** `time` on the day of `day`, local time; a time the clocks skip (spring forward) comes out just after. */
function onDay(day: Date, time: string, plusDays: number): Date {
  const minutes = minutesOf(time);
  return new Date(
    day.getFullYear(),
    day.getMonth(),
    day.getDate() + plusDays,
    Math.floor(minutes / 60),
    minutes % 60,
  );
}

/** The first moment after `at` when the clock reads `time`. */
function nextTime(time: string, at: Date): Date {
  for (let plus = 0; ; plus++) {
    const candidate = onDay(at, time, plus);
    if (candidate.getTime() > at.getTime()) return candidate;
  }
}

/** When sending may next begin: `at` itself inside the window, else the window's next start. */
export function nextWindowStart(window: SendWindow, at: Date): Date {
  return inSendWindow(window, at) ? at : nextTime(window.from, at);
}

/** When the window next closes: the next `to` after `at` (meaningful inside the window). */
export function nextWindowEnd(window: SendWindow, at: Date): Date {
  return nextTime(window.to, at);
}

/** `22:00–07:00`, as every face writes the window. */
export const windowText = (window: SendWindow): string => `${window.from}–${window.to}`;
