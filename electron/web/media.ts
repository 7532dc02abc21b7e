import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FileHandle } from 'node:fs/promises';
import rangeParser from 'range-parser';
import { DubdeskError, toContractError } from '../../shared/contract/errors';
import type { DubdeskApi } from '../../shared/contract/methods';
import { MEDIA_KINDS, type MediaKind } from '../../shared/face';
import { mediaFileFor, outputFileFor, srtToVtt, type MediaFile } from '../../shared/media-route';
import { create as contentDisposition } from 'content-disposition';
import { basename } from 'node:path';
import { openServedFile } from '../file-safety/served-file';
import { DOWNLOAD_ROUTE, PREVIEW_ROUTE } from './guard';
import { sendError } from './replies';

/** Subtitles converted in memory are small; anything bigger is not a subtitle file. */
const MAX_SUBTITLE_BYTES = 16 * 1024 * 1024;
const JOB_ID = /^[1-9][0-9]{0,14}$/;

const notServed = (message: string) => new DubdeskError('not-found', message);

/** The file a media request may serve: looked up from the job, never from the request. */
async function fileFor(api: DubdeskApi, params: unknown): Promise<MediaFile> {
  const { jobId, kind } = params as { jobId?: string; kind?: string };
  if (!jobId || !JOB_ID.test(jobId)) throw notServed('no such job');
  if (!MEDIA_KINDS.includes(kind as MediaKind))
    throw notServed(`no such media kind; one of ${MEDIA_KINDS.join(', ')}`);
  const job = await api.getJob({ id: Number(jobId) });
  const file = mediaFileFor(job, kind as MediaKind, job.sourceType);
  if (!file) throw notServed(`job ${jobId} has no ${kind} to play (yet)`);
  return file;
}

const INDEX = /^(0|[1-9][0-9]{0,3})$/;

/** The output file a download request may serve: the job's own, by its place in the job's list. */
async function outputFor(api: DubdeskApi, params: unknown): Promise<MediaFile> {
  const { jobId, index } = params as { jobId?: string; index?: string };
  if (!jobId || !JOB_ID.test(jobId)) throw notServed('no such job');
  if (!index || !INDEX.test(index)) throw notServed('no such file');
  const file = outputFileFor(await api.getJob({ id: Number(jobId) }), Number(index));
  if (!file) throw notServed(`job ${jobId} has no file ${index}`);
  return file;
}

async function sendVtt(reply: FastifyReply, handle: FileHandle, head: boolean) {
  try {
    const { size } = await handle.stat();
    if (size > MAX_SUBTITLE_BYTES) throw new DubdeskError('too-large', 'the subtitle file is too large');
    const vtt = srtToVtt(await handle.readFile('utf8'));
    reply.header('content-type', 'text/vtt; charset=utf-8').header('cache-control', 'private, no-cache');
    return reply.send(head ? '' : vtt);
  } finally {
    await handle.close();
  }
}

/**
 * Whether a Range may apply: no If-Range, or one whose date is this version's. Our ETag is weak, and a weak
 * tag never matches If-Range (RFC 9110 13.1.5), so an entity-tag there means: send the whole file.
 */
function ifRangeHolds(req: FastifyRequest, modified: Date): boolean {
  const cond = req.headers['if-range'];
  if (cond === undefined) return true;
  if (typeof cond !== 'string') return false;
  if (cond.startsWith('"') || cond.startsWith('W/')) return false;
  return Date.parse(cond) === Math.floor(modified.getTime() / 1000) * 1000;
}

async function sendRanged(req: FastifyRequest, reply: FastifyReply, handle: FileHandle, file: MediaFile) {
  const { size, mtime } = await handle.stat();
  const etag = `W/"${size.toString(16)}-${Math.floor(mtime.getTime()).toString(16)}"`;
  reply
    .header('content-type', file.contentType)
    .header('accept-ranges', 'bytes')
    .header('etag', etag)
    .header('last-modified', mtime.toUTCString())
    .header('cache-control', 'private, no-cache');
  let start = 0;
  let end = size - 1;
  const range = req.headers.range;
  if (range && ifRangeHolds(req, mtime)) {
    const parsed = rangeParser(size, range, { combine: true });
    if (parsed === -1) {
      await handle.close();
      return reply.code(416).header('content-range', `bytes */${size}`).send();
    }
    // A malformed Range (-2) or several ranges at once: the whole file, which HTTP allows.
    if (parsed !== -2 && parsed.type === 'bytes' && parsed.length === 1 && parsed[0]) {
      ({ start, end } = parsed[0]);
      reply.code(206).header('content-range', `bytes ${start}-${end}/${size}`);
    }
  }
  reply.header('content-length', String(size === 0 ? 0 : end - start + 1));
  if (req.method === 'HEAD' || size === 0) {
    await handle.close();
    return reply.send();
  }
  return reply.send(handle.createReadStream({ start, end, autoClose: true }));
}

/**
 * `GET /media/<jobId>/<kind>`: one job's own media, as `mediaFileFor` resolves it from the job's record;
 * no part of the request ever becomes a path. Range requests play and seek <video>; SRT subtitles are
 * turned into WebVTT on the way.
 */
export function mediaRoutes(app: FastifyInstance, api: DubdeskApi): void {
  /** The route's file, found from the job's record and opened; or the error already sent. */
  const opened = async (reply: FastifyReply, find: () => Promise<MediaFile>) => {
    try {
      const file = await find();
      // One rule with the desktop's media protocol: the recorded regular file, no symlink, no FIFO.
      return { file, handle: await openServedFile(file.path) };
    } catch (e) {
      void sendError(reply, toContractError(e));
      return null;
    }
  };
  app.route({
    method: ['GET', 'HEAD'],
    url: '/media/:jobId/:kind',
    // What the preview player loads: a media token will do (and for nothing else, see media-tokens.ts).
    ...PREVIEW_ROUTE,
    handler: async (req, reply) => {
      const found = await opened(reply, () => fileFor(api, req.params));
      if (!found) return reply;
      return found.file.needsVtt
        ? sendVtt(reply, found.handle, req.method === 'HEAD')
        : sendRanged(req, reply, found.handle, found.file);
    },
  });
  app.route({
    method: ['GET', 'HEAD'],
    url: '/media/:jobId/file/:index',
    ...DOWNLOAD_ROUTE,
    handler: async (req, reply) => {
      const found = await opened(reply, () => outputFor(api, req.params));
      if (!found) return reply;
      // Saved under its own name (any script, RFC 6266 filename* for what ASCII cannot say).
      reply.header('content-disposition', contentDisposition(basename(found.file.path)));
      return sendRanged(req, reply, found.handle, found.file);
    },
  });
}
