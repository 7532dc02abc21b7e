import { z } from 'zod';
import { ApiError, type ApiErrorKind } from '../api/errors';
import type { CreateV2Fields } from '../api/v2';
import type { JobRow } from '../db/jobs';
import type { StepContext } from './context';
import { dubName } from './dub-name';

/**
 * Where a v2 create stood among the service's dubs, taken just before it was sent: the newest dub listed
 * then (its id and `created_at` as written) and the service's clock (its `Date` header). A dub listed
 * before that one was made after it: a lost answer's dub is looked for there, on the service's terms, not
 * by this machine's clock, which may be minutes off the service's or in another time zone.
 */
export const CreateMark = z.object({
  /** Null: the account had no dub at all, so any dub listed later was made since. */
  newestId: z.string().nullable(),
  newestAt: z.string().nullable(),
  serviceAt: z.number().nullable(),
});
export type CreateMark = z.infer<typeof CreateMark>;

/** Failures that say the service's list is broken (not the line, the key or a stop): see `takeMark`. */
const BROKEN_LIST: ReadonlySet<ApiErrorKind> = new Set([
  'server',
  'backend',
  'too-big',
  'protocol',
  'truncated',
  'timeout',
]);

/**
 * One small list call (the newest dub only): asked before every v2 create. Null when the service cannot
 * give its list (a 5xx, an answer too big, nested too deep or out of shape): the create goes without a mark,
 * and a lost answer's dub is then placed by the service's own clock, its `Date` header when it is looked
 * for (see lookup.ts), or the job fails naming the account check.
 */
export async function takeMark(ctx: StepContext): Promise<CreateMark | null> {
  const page = await ctx.clients.v2.list(1, 1, ctx.signal).catch((e: unknown) => {
    if (e instanceof ApiError && BROKEN_LIST.has(e.kind)) return null;
    throw e;
  });
  if (!page) return null;
  const newestId = page.order[0] ?? null;
  const item = page.dubs.find((d) => d.id === newestId) ?? page.refused.find((r) => r.id === newestId)?.item;
  const at = (item as { created_at?: unknown } | undefined)?.created_at;
  return { newestId, newestAt: typeof at === 'string' ? at.slice(0, 100) : null, serviceAt: page.serviceNow };
}

/** The mark a job's last create was sent with, or null (a create sent before marks were kept). */
export function markOf(row: Pick<JobRow, 'create_mark'>): CreateMark | null {
  if (!row.create_mark) return null;
  try {
    const parsed = CreateMark.safeParse(JSON.parse(row.create_mark));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** The fields of a job's v2 create: what is sent, and what a lost answer's dub is recognised by. */
export function createFields(r: JobRow): CreateV2Fields {
  return {
    dest_lang: r.dest_lang,
    source_lang: r.source_lang,
    name: dubName(r),
    ...(r.duration !== null ? { duration: round3(r.duration) } : {}),
    is_studio_quality: r.studio === 1,
  };
}
