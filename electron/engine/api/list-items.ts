import type { z } from 'zod';
import { cleanServiceText } from '../../../shared/text';

/** A dub in a list that broke its schema: who it is (when it says), and what was wrong, for its job's error. */
export interface RefusedDub {
  id: string;
  problem: string;
  /**
   * What it measured, when the item still says the dub completed (the service charged it) with a sane
   * duration or none: the charge is the service's whatever else is broken.
   */
  completed?: { measuredDuration: number | null };
  /** The item as it came: a lookup may still recognise its own dub in it. */
  item: unknown;
}

/**
 * The items of a list, each checked on its own: a dub with an impossible figure (a measured duration of
 * 1e300) fails its own job with a message naming what the service sent, never every other job's poll.
 */
export function checkItems<S extends z.ZodType>(
  schema: S,
  items: readonly unknown[],
  /** Reads a completed dub's measured duration from an item that broke `schema` (fails otherwise). */
  completed?: z.ZodType<number | null>,
): { items: z.infer<S>[]; refused: RefusedDub[] } {
  const ok: z.infer<S>[] = [];
  const refused: RefusedDub[] = [];
  for (const item of items) {
    const parsed = schema.safeParse(item);
    if (parsed.success) {
      ok.push(parsed.data);
      continue;
    }
    const id = (item as { id?: unknown } | null)?.id;
    if (typeof id !== 'string') continue; // nobody's: nothing to tell
    const issue = parsed.error.issues[0];
    const path = (issue?.path ?? []).map(String).join('.').slice(0, 100);
    const problem = cleanServiceText(`${path} ${issue?.message ?? ''}`.trim(), 300);
    const charged = completed?.safeParse(item);
    refused.push({
      id,
      problem,
      item,
      ...(charged?.success ? { completed: { measuredDuration: charged.data } } : {}),
    });
  }
  return { items: ok, refused };
}
