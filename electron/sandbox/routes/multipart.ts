import { rm } from 'node:fs/promises';
import busboy from 'busboy';
import { onBodyInterrupted } from '../body';
import { pipeBody, type LinkShaper } from '../link-rate';
import { StoredFile, UPLOAD_WRITE_BUFFER } from '../stored-file';
import { HttpError } from '../http-error';
import type { Ctx } from '../http';

export interface MultipartUpload {
  fields: Record<string, string>;
  file: { path: string; filename: string; mimeType: string; bytes: number } | null;
}

const MAX_FIELD_BYTES = 64 * 1024;

/**
 * Streams the `file` part straight to disk (never held in memory) and collects the other fields.
 * Settles exactly once on every path: done, 413 past `maxBytes` (before the rest is read), 400 for a
 * malformed or cut-off body, 500 when the disk fails. The request is never destroyed here, so the caller
 * can still answer.
 */
export function readMultipart(
  ctx: Ctx,
  dest: string,
  maxBytes: number,
  shaper: LinkShaper | null = null,
): Promise<MultipartUpload> {
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: ctx.req.headers,
        // Browsers and fetch send file names as raw UTF-8; busboy's default (latin1) would garble them.
        defParamCharset: 'utf8',
        highWaterMark: UPLOAD_WRITE_BUFFER,
        fileHwm: UPLOAD_WRITE_BUFFER,
        // busboy signals 'limit' on reaching fileSize, so one byte more: a file of exactly maxBytes is fine.
        limits: { files: 1, fields: 50, fileSize: maxBytes + 1, fieldSize: MAX_FIELD_BYTES, parts: 60 },
      });
    } catch {
      reject(new HttpError(400, 'Malformed multipart body'));
      return;
    }
    const fields: Record<string, string> = {};
    let file: MultipartUpload['file'] = null;
    let out: StoredFile | null = null;
    let writing: Promise<void> = Promise.resolve();
    let settled = false;
    const fail = (err: HttpError) => {
      if (settled) return;
      settled = true;
      detach();
      piping.stop();
      out?.destroy();
      void rm(dest, { force: true }).catch(() => undefined);
      reject(err);
    };
    const detach = onBodyInterrupted(ctx.req, () => fail(new HttpError(400, 'Upload interrupted')));

    bb.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(new HttpError(400, `Field '${name}' is too long`));
      else fields[name] = value;
    });
    bb.on('file', (name, stream, info) => {
      stream.on('error', () =>
        fail(new HttpError(400, 'Malformed multipart body: the file part is cut off')),
      );
      if (name !== 'file' || file) {
        stream.resume();
        return;
      }
      const meta = { path: dest, filename: info.filename ?? 'upload', mimeType: info.mimeType, bytes: 0 };
      file = meta;
      const sink = new StoredFile(dest);
      out = sink;
      stream.on('data', (chunk: Buffer) => {
        meta.bytes += chunk.length;
      });
      stream.on('limit', () => fail(new HttpError(413, `File exceeds the ${maxBytes}-byte upload limit`)));
      sink.on('error', () => fail(new HttpError(500, 'Could not store the upload')));
      writing = new Promise((res) => sink.on('finish', res));
      stream.pipe(sink);
    });
    bb.on('partsLimit', () => fail(new HttpError(400, 'Too many parts in the multipart body')));
    bb.on('fieldsLimit', () => fail(new HttpError(400, 'Too many fields in the multipart body')));
    bb.on('error', () => fail(new HttpError(400, 'Malformed multipart body')));
    bb.on('close', () => {
      if (settled) return;
      void writing.then(() => {
        if (settled) return;
        settled = true;
        detach();
        resolve({ fields, file });
      });
    });
    const piping = pipeBody(ctx.req, bb, shaper);
  });
}
