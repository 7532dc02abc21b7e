import type { FastifyInstance } from 'fastify';
import { createWriteStream } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DubdeskError, toContractError } from '../../../shared/contract/errors';
import { MAX_STAGED_BYTES, ROUTES, STAGE_NAME_PARAM } from '../../../shared/serve-protocol';
import { sendError, sendValue } from './replies';
import { stagedName } from './staged-name';
import { newToken } from './token';

/** In each staging folder: the name of the one file staging wrote there. */
export const STAGED_MARKER = '.staged';

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
        if (name.toLowerCase() === STAGED_MARKER) name = `_${name}`;
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
        // What the sweep may delete later: this file, never what the engine writes beside it.
        await writeFile(join(dir, STAGED_MARKER), name, { mode: 0o600 });
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
