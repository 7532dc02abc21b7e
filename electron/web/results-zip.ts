import type { FastifyInstance } from 'fastify';
import { create as contentDisposition } from 'content-disposition';
import type { ReadStream } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { PassThrough } from 'node:stream';
import { ZipFile } from 'yazl';
import { z } from 'zod';
import { DubdeskError, toContractError } from '../../shared/contract/errors';
import type { DubdeskApi } from '../../shared/contract/methods';
import { ROUTES } from '../../shared/serve-protocol';
import { openServedFile } from '../file-safety/served-file';
import { DOWNLOAD_ROUTE } from './guard';
import { sendError } from './replies';
import { zipEntryNames, type ZipSource } from './zip-names';

/** `?jobs=1,2,3`: up to 10,000 job ids. */
const ZipQuery = z.object({
  jobs: z
    .string()
    .regex(/^[1-9][0-9]{0,14}(,[1-9][0-9]{0,14}){0,9999}$/, 'jobs: a comma-separated list of job ids')
    .transform((s) => [...new Set(s.split(',').map(Number))]),
  name: z
    .string()
    .max(120)
    .regex(/^[^/\\\0]+$/)
    .optional(),
});

interface ZipEntry {
  name: string;
  path: string;
  mtime: Date;
}

/** The file's modification time if it is a regular file now (no descriptor is opened for it yet). */
async function regularFileTime(path: string): Promise<Date | null> {
  const st = await lstat(path).catch(() => null);
  return st?.isFile() ? st.mtime : null;
}

/**
 * The zip of `files`, each opened only when yazl reaches it and closed once read, so at most one is open
 * however many jobs are asked for. Destroying the returned stream ends the zip and closes the open file.
 */
function zipStream(files: readonly ZipEntry[]): PassThrough {
  const zip = new ZipFile();
  const body = new PassThrough();
  let reading: ReadStream | null = null;
  let gone = false;
  body.once('close', () => {
    gone = true;
    reading?.destroy();
    zip.outputStream.unpipe(body);
  });
  zip.on('error', (e: Error) => body.destroy(e));
  for (const f of files)
    zip.addReadStreamLazy(f.name, { mtime: f.mtime, compress: false }, (give) => {
      if (gone) return; // nobody reads any more: open nothing
      openServedFile(f.path).then(
        (handle) => {
          if (gone) return void handle.close();
          reading = handle.createReadStream({ autoClose: true });
          give(null, reading);
        },
        // Gone between the listing and now: the zip cannot skip an entry it has begun, so it ends here.
        (e: unknown) => body.destroy(e instanceof Error ? e : new Error(String(e))),
      );
    });
  zip.end();
  zip.outputStream.pipe(body);
  return body;
}

/**
 * `GET /media/results.zip?jobs=…`: every finished file of those jobs, streamed as one zip as it is read
 * (never built in memory or on disk). Only the files the jobs recorded, by the served-file rule; a job
 * without files adds nothing. Stored, not compressed: the results are video and audio already compressed.
 */
export function resultsZipRoute(app: FastifyInstance, api: DubdeskApi): void {
  app.get(ROUTES.resultsZip, DOWNLOAD_ROUTE, async (req, reply) => {
    try {
      const q = ZipQuery.safeParse(req.query);
      if (!q.success)
        throw new DubdeskError('bad-request', q.error.issues[0]?.message ?? 'bad query', {
          remedy: 'Ask for /media/results.zip?jobs=1,2,3',
        });
      // Every id is looked up before any file is opened, so a refused id leaves nothing open.
      const found: ZipSource[] = [];
      const mtimes = new Map<string, Date>();
      for (const id of q.data.jobs) {
        const job = await api.getJob({ id });
        for (const o of job.outputs) {
          const mtime = mtimes.get(o.path) ?? (await regularFileTime(o.path));
          if (!mtime) continue;
          mtimes.set(o.path, mtime);
          found.push({ outDir: job.outDir, path: o.path });
        }
      }
      const files: ZipEntry[] = [...zipEntryNames(found)].map(([path, name]) => ({
        name,
        path,
        mtime: mtimes.get(path) ?? new Date(),
      }));
      if (files.length === 0)
        throw new DubdeskError('not-found', 'none of these jobs has finished files yet');
      const body = zipStream(files);
      // A client gone mid-zip: the reply's stream is destroyed, and with it the file being read.
      reply.raw.once('close', () => body.destroy());
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', contentDisposition(`${q.data.name ?? 'Dubdesk results'}.zip`))
        .header('cache-control', 'private, no-store')
        .send(body);
    } catch (e) {
      return sendError(reply, toContractError(e));
    }
  });
}
