import { randomUUID } from 'node:crypto';
import { HttpError } from './http-error';
import { JSON_TYPE, type Ctx } from './http';
import type { Faults } from './faults';

const MiB = 1024 * 1024;
const HUGE_BYTES = 100 * MiB;
const DEPTH = 200_000;

/** A v2 dub that is nobody the caller knows: what a list "full of other dubs" holds. */
function otherDubV2(): Record<string, unknown> {
  const id = randomUUID();
  return {
    id,
    dubbing_id: id,
    project_id: randomUUID(),
    name: 'someone-else.mp4',
    type: 'video/mp4',
    source_lang: 'auto',
    dest_lang: 'de',
    external_status_id: 3,
    progress_percentage: 50,
    external_error_message: null,
    duration: 10,
    measured_duration: null,
    is_studio_quality: false,
    source: 'api',
    created_at: new Date().toISOString(),
    outputs: {},
  };
}

/** 100 MiB of a JSON string's padding between `head` and `tail`, a megabyte at a time, as the reader takes them. */
async function sendHuge(ctx: Ctx, head: string, tail: string): Promise<void> {
  const { res } = ctx;
  res.writeHead(200, { 'content-type': JSON_TYPE });
  const chunk = Buffer.alloc(MiB, 'x');
  res.write(head);
  for (let sent = 0; sent < HUGE_BYTES && !res.destroyed; sent += MiB)
    if (!res.write(chunk)) await drainedOrClosed(res);
  res.end(tail);
}

/** Waits for the socket to take more, or to be gone; leaves no listener behind (one wait per megabyte). */
function drainedOrClosed(res: Ctx['res']): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done).off('close', done);
      resolve();
    };
    res.once('drain', done).once('close', done);
  });
}

/**
 * A list request answered broken, as `faults.listFault` says; false when lists are healthy (the route then
 * answers as usual). `v2` lists are objects with pagination, v1 and legacy lists bare arrays.
 */
export async function brokenList(faults: Faults, ctx: Ctx, shape: 'v2' | 'array'): Promise<boolean> {
  const fault = faults.listFault;
  if (fault === 'none') return false;
  const page = Number(ctx.url.searchParams.get('page') ?? 1) || 1;
  const pagination = `"pagination":{"page":${page},"page_size":100,"total":1e15,"total_pages":1e15}`;
  const { res } = ctx;
  switch (fault) {
    case 'error':
      throw new HttpError(500, 'The list of dubs is unavailable');
    case 'huge':
      if (shape === 'v2') await sendHuge(ctx, `{${pagination},"dubs":[],"padding":"`, '"}');
      else await sendHuge(ctx, '["', '"]');
      return true;
    case 'deep': {
      const nested = `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`;
      res.writeHead(200, { 'content-type': JSON_TYPE });
      res.end(shape === 'v2' ? `{"dubs":${nested},${pagination}}` : nested);
      return true;
    }
    case 'others': {
      res.writeHead(200, { 'content-type': JSON_TYPE });
      const dubs = shape === 'v2' ? Array.from({ length: 100 }, otherDubV2) : [];
      res.end(shape === 'v2' ? `{"dubs":${JSON.stringify(dubs)},${pagination}}` : JSON.stringify(dubs));
      return true;
    }
  }
}
