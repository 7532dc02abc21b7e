import type { FastifyInstance } from 'fastify';
import { create as contentDisposition } from 'content-disposition';
import { basename, isAbsolute, relative } from 'node:path';
import { PassThrough } from 'node:stream';
import { ZipFile } from 'yazl';
import { z } from 'zod';
import { DubdeskError, toContractError } from '../../shared/contract/errors';
import type { DubdeskApi } from '../../shared/contract/methods';
import { ROUTES } from '../../shared/serve-protocol';
import { openServedFile } from '../engine/served-file';
import { DOWNLOAD_ROUTE } from './guard';
import { sendError } from './replies';

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

/** The name a result has inside the zip: its place under the job's output folder (`es/Movie.mp4`). */
function entryName(outDir: string, path: string): string {
  const rel = relative(outDir, path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(/[\\/]/).join('/') : basename(path);
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
      const zip = new ZipFile();
      const names = new Set<string>();
      const files: { name: string; handle: Awaited<ReturnType<typeof openServedFile>> }[] = [];
      for (const id of q.data.jobs) {
        const job = await api.getJob({ id });
        for (const o of job.outputs) {
          const name = entryName(job.outDir, o.path);
          if (names.has(name)) continue; // the same file listed twice (a source's shared outputs)
          const handle = await openServedFile(o.path).catch(() => null);
          if (!handle) continue;
          names.add(name);
          files.push({ name, handle });
        }
      }
      if (files.length === 0)
        throw new DubdeskError('not-found', 'none of these jobs has finished files yet');
      for (const { name, handle } of files) {
        const { mtime } = await handle.stat();
        zip.addReadStream(handle.createReadStream({ autoClose: true }), name, { mtime, compress: false });
      }
      zip.end();
      const body = new PassThrough();
      zip.outputStream.pipe(body);
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
