import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { rename, rm, stat } from 'node:fs/promises';
import { OutputTypeSchema } from '../../../shared/api/common';
import { contentDisposition } from '../content-disposition';
import { receiveToFile } from '../body';
import { HttpError } from '../http-error';
import { dropConnection, respond, route, sendText, type Ctx, type Route } from '../http';
import type { SandboxService } from '../service';

function checkSignature(svc: SandboxService, ctx: Ctx, method: string): void {
  const verdict = svc.signer.verify(method, ctx.url);
  if (verdict === 'expired') throw new HttpError(403, 'Request has expired');
  if (verdict !== 'ok') throw new HttpError(403, 'The request signature does not match');
}

async function upload(svc: SandboxService, ctx: Ctx): Promise<void> {
  checkSignature(svc, ctx, 'PUT');
  const dub = svc.state.dubs.get(ctx.params.id ?? '');
  if (!dub || !dub.uploadUrl) throw new HttpError(404, 'No such upload');
  if (dub.queuedAt !== null)
    throw new HttpError(409, 'This dub has already started; its upload can no longer change');
  const max = svc.options.maxStorageBytes ?? Number.POSITIVE_INFINITY;
  if (Number(ctx.req.headers['content-length']) > max)
    throw new HttpError(413, `File exceeds the ${max}-byte upload limit`);
  // Into a side file first: a broken or refused upload never replaces one that arrived whole.
  const part = `${dub.uploadPath}.part-${randomUUID()}`;
  try {
    const started = Date.now();
    const bytes = await receiveToFile(ctx.req, part, max, svc.uplink);
    svc.state.ingest.putBytes += bytes;
    svc.state.received(bytes, Date.now() - started);
    if (bytes === 0) throw new HttpError(400, 'Empty upload');
    await rename(part, dub.uploadPath);
  } finally {
    await rm(part, { force: true });
  }
  dub.uploaded = true;
  svc.state.saved(dub);
  respond(ctx, 200, { etag: `"${dub.id}"` }, '');
}

function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | null | 'invalid' {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return 'invalid';
  let start: number;
  let end: number;
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(size - 1, Number(m[2]));
  }
  return start > end || start >= size ? 'invalid' : { start, end };
}

async function download(svc: SandboxService, ctx: Ctx): Promise<void> {
  checkSignature(svc, ctx, 'GET');
  if (svc.faults.roll('rateExpireLink')) throw new HttpError(403, 'Request has expired');
  const dub = svc.state.dubs.get(ctx.params.id ?? '');
  const type = OutputTypeSchema.safeParse(ctx.params.type);
  const artifact = type.success ? dub?.artifacts?.[type.data] : undefined;
  if (!dub || !artifact || dub.externalStatusId !== 5) throw new HttpError(404, 'No such object');
  const size = await stat(artifact.path).then(
    (st) => st.size,
    () => {
      throw new HttpError(404, 'No such object');
    },
  );
  const range = parseRange(ctx.req.headers.range, size);
  if (range === 'invalid') {
    sendText(
      ctx.res,
      416,
      { 'content-range': `bytes */${size}`, 'content-type': 'application/json' },
      JSON.stringify({ error: 'Requested range not satisfiable' }),
    );
    return;
  }
  const start = range?.start ?? 0;
  const end = range?.end ?? size - 1;
  const length = end - start + 1;
  const disposition =
    ctx.url.searchParams.get('response-content-disposition') === 'attachment' ? 'attachment' : 'inline';
  ctx.res.writeHead(range ? 206 : 200, {
    'content-type': artifact.contentType,
    'content-length': length,
    'accept-ranges': 'bytes',
    etag: `"${dub.id}-${type.data}"`,
    'content-disposition': contentDisposition(disposition, artifact.fileName),
    ...(range ? { 'content-range': `bytes ${start}-${end}/${size}` } : {}),
  });
  if (ctx.req.method === 'HEAD' || length === 0) {
    ctx.res.end();
    return;
  }
  // A truncated download: the promised length, half the bytes, then the connection drops.
  const truncated = length > 1 && svc.faults.roll('rateTruncate');
  const last = truncated ? start + Math.floor(length / 2) - 1 : end;
  const body = createReadStream(artifact.path, { start, end: last });
  // The file vanished or the reader broke after the headers went out: all that is left is to hang up.
  body.on('error', () => dropConnection(ctx));
  // Through the link's sending side when it is shaped (`--link-rate`): every download shares its rate.
  const shaped = svc.downlink?.throttle() ?? null;
  const sent: Readable = shaped ? body.pipe(shaped) : body;
  ctx.res.on('close', () => {
    body.destroy();
    shaped?.destroy();
  });
  if (truncated) {
    sent.on('end', () => dropConnection(ctx));
    sent.pipe(ctx.res, { end: false });
  } else {
    sent.pipe(ctx.res);
  }
}

export function storageRoutes(svc: SandboxService): Route[] {
  return [
    route('PUT', '/storage/uploads/:id', 'storage', (ctx) => upload(svc, ctx)),
    route('GET', '/storage/outputs/:id/:type/:name', 'storage', (ctx) => download(svc, ctx)),
    route('HEAD', '/storage/outputs/:id/:type/:name', 'storage', (ctx) => download(svc, ctx)),
  ];
}
