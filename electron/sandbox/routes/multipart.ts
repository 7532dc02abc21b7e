import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import busboy from 'busboy';
import { HttpError, type Ctx } from '../http';

export interface MultipartUpload {
  fields: Record<string, string>;
  file: { path: string; filename: string; mimeType: string; bytes: number } | null;
}

/**
 * Streams the `file` part straight to disk (never held in memory) and collects the other fields.
 * Passing `maxBytes` fails at once with 413, before the rest of the body is read.
 */
export function readMultipart(ctx: Ctx, dest: string, maxBytes: number): Promise<MultipartUpload> {
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({ headers: ctx.req.headers, limits: { files: 1, fields: 50, fileSize: maxBytes } });
    } catch {
      reject(new HttpError(400, 'Malformed multipart body'));
      return;
    }
    const fields: Record<string, string> = {};
    let file: MultipartUpload['file'] = null;
    let writing: Promise<void> = Promise.resolve();
    let failed = false;
    const fail = (err: HttpError) => {
      if (failed) return;
      failed = true;
      ctx.req.unpipe(bb);
      void rm(dest, { force: true });
      reject(err);
    };

    bb.on('field', (name, value) => {
      fields[name] = value;
    });
    bb.on('file', (name, stream, info) => {
      if (name !== 'file' || file) {
        stream.resume();
        return;
      }
      const meta = { path: dest, filename: info.filename ?? 'upload', mimeType: info.mimeType, bytes: 0 };
      file = meta;
      const out = createWriteStream(dest);
      stream.on('data', (chunk: Buffer) => {
        meta.bytes += chunk.length;
      });
      stream.on('limit', () => fail(new HttpError(413, `File exceeds the ${maxBytes}-byte upload limit`)));
      writing = new Promise((res, rej) => {
        out.on('finish', res);
        out.on('error', rej);
      });
      stream.pipe(out);
    });
    bb.on('error', () => fail(new HttpError(400, 'Malformed multipart body')));
    bb.on('close', () => {
      if (failed) return;
      writing.then(
        () => resolve({ fields, file }),
        () => fail(new HttpError(500, 'Could not store the upload')),
      );
    });
    ctx.req.on('error', () => fail(new HttpError(400, 'Upload interrupted')));
    ctx.req.pipe(bb);
  });
}
