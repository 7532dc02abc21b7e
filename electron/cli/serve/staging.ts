import type { FastifyInstance } from 'fastify';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DubdeskError, toContractError } from '../../../shared/contract/errors';
import type { DubdeskApi } from '../../../shared/contract/methods';
import { MAX_STAGED_BYTES, ROUTES, STAGE_NAME_PARAM } from '../../../shared/serve-protocol';
import { sendError, sendValue } from './replies';
import { stagedName } from './staged-name';
import { newToken } from './token';

export interface StagingOptions {
  /** `<home>/staging`. */
  root: string;
  maxBytes?: number;
}

class TooLarge extends Error {}

/** Passes bytes through, failing once more than `max` went by (a body without Content-Length too). */
function limit(max: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      seen += chunk.length;
      if (seen > max) done(new TooLarge());
      else done(null, chunk);
    },
  });
}

const tooLarge = (max: number) =>
  new DubdeskError('too-large', `a staged file may be at most ${Math.round(max / 1024 ** 2)} MiB`, {
    remedy: 'Add it by its path on this machine instead, or split it.',
  });

/**
 * `POST /staging?name=<file name>`: the body is the file's bytes, streamed to disk as they arrive (never
 * held in memory), into a folder of its own: `<home>/staging/<random>/<name>`. The answer is its path, to
 * be estimated and added like any other path.
 */
export function stagingRoutes(app: FastifyInstance, opts: StagingOptions, active: Set<string>): void {
  const max = opts.maxBytes ?? MAX_STAGED_BYTES;
  void app.register(async (scope) => {
    // Whatever its type, the body is not parsed: the handler streams the raw request to the file.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, _payload, done) => done(null));

    scope.post(ROUTES.staging, async (req, reply) => {
      const declared = Number(req.headers['content-length']);
      let name: string;
      try {
        name = stagedName((req.query as Record<string, unknown>)[STAGE_NAME_PARAM]);
        if (declared > max) throw tooLarge(max);
      } catch (e) {
        // The body is not wanted: close the connection rather than read gigabytes for nothing.
        return sendError(reply.header('connection', 'close'), toContractError(e));
      }
      const folder = newToken().slice(0, 22);
      const dir = join(opts.root, folder);
      const path = join(dir, name);
      active.add(folder);
      try {
        await mkdir(dir, { recursive: true, mode: 0o700 });
        await pipeline(req.raw, limit(max), createWriteStream(path, { flags: 'wx', mode: 0o600 }));
        return sendValue(reply, { path });
      } catch (e) {
        await rm(dir, { recursive: true, force: true });
        if (e instanceof TooLarge) return sendError(reply.header('connection', 'close'), tooLarge(max));
        if (req.raw.destroyed || (e as NodeJS.ErrnoException).code === 'ECONNRESET') return reply; // gone
        return sendError(reply, {
          code: 'disk',
          message: `the file could not be staged: ${(e as Error).message}`,
        });
      } finally {
        active.delete(folder);
      }
    });
  });
}

export interface SweepOptions {
  root: string;
  api: DubdeskApi;
  /** Uploads in progress: never swept. */
  active: ReadonlySet<string>;
  /** A staged folder untouched for this long, and used by no job, goes. */
  retentionMs: number;
  now?: number;
}

async function newestChange(dir: string): Promise<number> {
  let newest = (await stat(dir)).mtimeMs;
  for (const entry of await readdir(dir)) {
    const s = await stat(join(dir, entry)).catch(() => null);
    if (s) newest = Math.max(newest, s.mtimeMs);
  }
  return newest;
}

async function inUse(api: DubdeskApi, folder: string): Promise<boolean> {
  const page = await api.listJobs({ filter: { search: folder }, limit: 500 });
  return page.jobs.some((j) => j.source.includes(folder));
}

/**
 * Staged files live as long as the queue needs them: a folder goes once no job uses its file (its jobs
 * were finished and cleared, or it was never added) and nothing was written to it for `retentionMs`
 * (time to estimate and add after dropping). Returns the folders removed.
 */
export async function sweepStaging(opts: SweepOptions): Promise<string[]> {
  const now = opts.now ?? Date.now();
  const removed: string[] = [];
  let entries: string[];
  try {
    entries = await readdir(opts.root);
  } catch {
    return removed; // nothing staged yet
  }
  for (const folder of entries) {
    if (opts.active.has(folder)) continue;
    const dir = join(opts.root, folder);
    try {
      if (now - (await newestChange(dir)) < opts.retentionMs) continue;
      if (await inUse(opts.api, folder)) continue;
      await rm(dir, { recursive: true, force: true });
      removed.push(folder);
    } catch {
      /* changed under us; the next sweep looks again */
    }
  }
  return removed;
}
