/**
 * `dubdesk-media://job/<id>/<kind>`: a job's own media for the preview (dubbed video, original, subtitles,
 * poster). The file comes from the job through the contract (`getJob`, then `mediaFileFor`): never a path
 * from the request. Regular files only (`openServedFile`, shared with serve); byte ranges for seeking; SRT subtitles become WebVTT.
 */
import type { FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { mediaFileFor, srtToVtt } from '../../shared/media-route';
import { openServedFile } from '../file-safety/served-file';
import type { DubdeskApi } from '../../shared/contract/methods';
import { parseMediaUrl } from './media-url';
import { APP_ORIGIN } from './trust';

const MAX_SUBTITLES = 16 * 1024 * 1024;

const BASE_HEADERS: Record<string, string> = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  // The page is another origin (dubdesk://app): a <track> loads only with CORS.
  'Access-Control-Allow-Origin': APP_ORIGIN,
};

const status = (code: number, extra: Record<string, string> = {}) =>
  new Response(null, { status: code, headers: { ...BASE_HEADERS, ...extra } });

/** A single `bytes=` range against `size`: the inclusive span, 'bad' when unsatisfiable, null for none. */
export function parseRange(
  header: string | null,
  size: number,
): { start: number; end: number } | 'bad' | null {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m) return 'bad';
  const [, a = '', b = ''] = m;
  if (a === '' && b === '') return 'bad';
  if (a === '') {
    const n = Number(b);
    if (n === 0 || size === 0) return 'bad';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(a);
  const end = b === '' ? size - 1 : Math.min(Number(b), size - 1);
  if (start >= size || end < start) return 'bad';
  return { start, end };
}

export function mediaProtocolHandler(api: DubdeskApi): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return status(405);
    const target = parseMediaUrl(request.url);
    if (!target) return status(404);
    let file;
    try {
      const job = await api.getJob({ id: target.jobId });
      file = mediaFileFor(job, target.kind, job.sourceType);
    } catch {
      return status(404);
    }
    if (!file) return status(404);

    let handle: FileHandle;
    try {
      // The same rule as serve's /media: the recorded regular file; no symlink, FIFO or folder.
      handle = await openServedFile(file.path);
    } catch {
      return status(404);
    }
    let handedOver = false;
    try {
      const info = await handle.stat();
      const head = request.method === 'HEAD';

      if (file.needsVtt) {
        if (info.size > MAX_SUBTITLES) return status(413);
        const vtt = Buffer.from(srtToVtt(await handle.readFile('utf8')), 'utf8');
        return new Response(head ? null : vtt, {
          status: 200,
          headers: {
            ...BASE_HEADERS,
            'Content-Type': 'text/vtt; charset=utf-8',
            'Content-Length': String(vtt.length),
          },
        });
      }

      const range = parseRange(request.headers.get('range'), info.size);
      if (range === 'bad') return status(416, { 'Content-Range': `bytes */${info.size}` });
      const start = range?.start ?? 0;
      const end = range?.end ?? info.size - 1;
      const headers: Record<string, string> = {
        ...BASE_HEADERS,
        'Content-Type': file.contentType,
        'Accept-Ranges': 'bytes',
        'Content-Length': String(Math.max(0, end - start + 1)),
        ...(range ? { 'Content-Range': `bytes ${start}-${end}/${info.size}` } : {}),
      };
      if (head || info.size === 0) return new Response(null, { status: range ? 206 : 200, headers });
      const stream = handle.createReadStream({ start, end, autoClose: true });
      handedOver = true;
      return new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, {
        status: range ? 206 : 200,
        headers,
      });
    } finally {
      if (!handedOver) await handle.close();
    }
  };
}
