import type { FastifyInstance } from 'fastify';
import { createHash, type Hash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DubdeskError, toContractError } from '../../shared/contract/errors';
import {
  MAX_STAGED_BYTES,
  ROUTES,
  STAGE_MODIFIED_PARAM,
  STAGE_NAME_PARAM,
} from '../../shared/serve-protocol';
import { sendError, sendValue } from './replies';
import { stagedName } from './staged-name';
import { STAGING_LIMITS, StagingBudget, type Admitted, type StagingLimits } from './staging-budget';
import { newToken } from './token';

/** In each staging folder: the name of the one file staging wrote there. */
export const STAGED_MARKER = '.staged';

export interface StagingOptions {
  /** `<home>/staging`. */
  root: string;
  /** Per file, in all, the disk's margin, at once: see StagingLimits (defaults: STAGING_LIMITS). */
  limits?: Partial<StagingLimits>;
}

class TooLarge extends Error {}

/**
 * Passes bytes through, failing once more than `max` went by (a body without Content-Length too), and
 * telling `wrote` what went by.
 */
function limit(max: number, wrote: (n: number) => void): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      seen += chunk.length;
      if (seen > max) return done(new TooLarge());
      wrote(chunk.length);
      done(null, chunk);
    },
  });
}

/** Passes bytes through into `hash`. */
function tap(hash: Hash): Transform {
  return new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
}

/** The file's own last-modified time as the browser gave it, if it is a plausible one. */
function modifiedOf(raw: unknown): Date | null {
  const ms = typeof raw === 'string' && /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  return Number.isFinite(ms) && ms > 0 && ms < Date.now() + 86_400_000 ? new Date(ms) : null;
}

/**
 * Where a staged file lives for good: a folder named by its name and content, so the same file dropped
 * again lands on the same path (and is known as already dubbed), not on a new one that would be paid again.
 * An identical file already there is kept and the new copy dropped; a folder left with only results in it
 * (its staged file swept) takes the new copy.
 */
async function settleStaged(tmpDir: string, key: string, root: string, name: string): Promise<string> {
  const dir = join(root, key);
  const path = join(dir, name);
  try {
    await rename(tmpDir, dir);
    return path;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw e;
  }
  const here = await stat(path).catch(() => null);
  if (here?.isFile()) {
    await rm(tmpDir, { recursive: true, force: true });
    return path;
  }
  await rename(join(tmpDir, name), path);
  await rename(join(tmpDir, STAGED_MARKER), join(dir, STAGED_MARKER));
  await rm(tmpDir, { recursive: true, force: true });
  return path;
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
  const max = opts.limits?.maxBytes ?? MAX_STAGED_BYTES;
  const budget = new StagingBudget(opts.root, { ...STAGING_LIMITS, ...opts.limits, maxBytes: max });
  void app.register(async (scope) => {
    // Whatever its type, the body is not parsed: the handler streams the raw request to the file.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, _payload, done) => done(null));

    scope.post(ROUTES.staging, async (req, reply) => {
      const length = req.headers['content-length'];
      const declared = length === undefined ? null : Number(length);
      let name: string;
      let admitted: Admitted;
      try {
        name = stagedName((req.query as Record<string, unknown>)[STAGE_NAME_PARAM]);
        if (name.toLowerCase() === STAGED_MARKER) name = `_${name}`;
        if (declared !== null && declared > max) throw tooLarge(max);
        admitted = await budget.admit(declared);
      } catch (e) {
        // The body is not wanted: close the connection rather than read gigabytes for nothing.
        const error = toContractError(e);
        return sendError(reply.header('connection', 'close'), error, error.code === 'busy' ? 429 : undefined);
      }
      const folder = `.incoming-${newToken().slice(0, 22)}`;
      const dir = join(opts.root, folder);
      const path = join(dir, name);
      const modified = modifiedOf((req.query as Record<string, unknown>)[STAGE_MODIFIED_PARAM]);
      const hash = createHash('sha256').update(`${name}\0`);
      active.add(folder);
      try {
        await mkdir(dir, { recursive: true, mode: 0o700 });
        // What the sweep may delete later: this file, never what the engine writes beside it.
        await writeFile(join(dir, STAGED_MARKER), name, { mode: 0o600 });
        await pipeline(
          req.raw,
          limit(admitted.allowed, admitted.wrote),
          tap(hash),
          createWriteStream(path, { flags: 'wx', mode: 0o600 }),
        );
        if (modified) await utimes(path, new Date(), modified);
        const key = hash.digest('base64url').slice(0, 22);
        return sendValue(reply, { path: await settleStaged(dir, key, opts.root, name) });
      } catch (e) {
        await rm(dir, { recursive: true, force: true });
        if (e instanceof TooLarge)
          return sendError(
            reply.header('connection', 'close'),
            toContractError(admitted.allowed < max ? admitted.refusal : tooLarge(max)),
          );
        if (req.raw.destroyed || (e as NodeJS.ErrnoException).code === 'ECONNRESET') return reply; // gone
        return sendError(reply, {
          code: 'disk',
          message: `the file could not be staged: ${(e as Error).message}`,
        });
      } finally {
        active.delete(folder);
        admitted.end();
      }
    });
  });
}
