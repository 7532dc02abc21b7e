import type { IncomingMessage } from 'node:http';
import { HttpError } from './http-error';
import { pipeBody, type LinkShaper } from './link-rate';
import { StoredFile } from './stored-file';

/**
 * Every way a request body can stop short: the client aborted, the socket broke, or it closed early.
 * `onStop` runs at most once per call; the returned function detaches the listeners.
 */
export function onBodyInterrupted(req: IncomingMessage, onStop: () => void): () => void {
  const stop = () => {
    if (!req.complete) onStop();
  };
  req.on('error', stop);
  req.on('close', stop);
  return () => {
    req.off('error', stop);
    req.off('close', stop);
  };
}

/** Reads and discards the rest of a request body; false if it runs past `limit` bytes or breaks. */
export function drainBody(req: IncomingMessage, limit: number): Promise<boolean> {
  return new Promise((resolve) => {
    if (req.complete) return resolve(true);
    let seen = 0;
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > limit) finish(false);
    };
    const detach = onBodyInterrupted(req, () => finish(false));
    const onEnd = () => finish(true);
    const finish = (ok: boolean) => {
      req.off('data', onData);
      req.off('end', onEnd);
      detach();
      if (!ok) req.pause();
      resolve(ok);
    };
    req.on('data', onData);
    req.once('end', onEnd);
    req.resume();
  });
}

/** A whole small body in memory, refused with 413 past `limit`; never destroys the request itself. */
export function readSmallBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) return finish(new HttpError(413, `Body larger than ${limit} bytes`));
      chunks.push(chunk);
    };
    const onEnd = () => finish(null);
    const detach = onBodyInterrupted(req, () => finish(new HttpError(400, 'Request body interrupted')));
    const finish = (err: HttpError | null) => {
      req.off('data', onData);
      req.off('end', onEnd);
      detach();
      if (err) {
        req.pause();
        reject(err);
      } else resolve(Buffer.concat(chunks));
    };
    req.on('data', onData);
    req.once('end', onEnd);
  });
}

/**
 * Streams a raw request body to `dest`: 413 as soon as it passes `maxBytes`, 400 when it breaks off, 500
 * when the disk fails. Resolves with the byte count once the file is complete. The request is paused on
 * failure, never destroyed, so the caller can still answer.
 */
export function receiveToFile(
  req: IncomingMessage,
  dest: string,
  maxBytes: number,
  shaper: LinkShaper | null = null,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const out = new StoredFile(dest);
    let bytes = 0;
    let settled = false;
    const fail = (err: HttpError) => {
      if (settled) return;
      settled = true;
      piping.stop();
      detach();
      out.destroy();
      reject(err);
    };
    const detach = onBodyInterrupted(req, () => fail(new HttpError(400, 'Upload interrupted')));
    req.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > maxBytes) fail(new HttpError(413, `File exceeds the ${maxBytes}-byte upload limit`));
    });
    out.on('error', () => fail(new HttpError(500, 'Could not store the upload')));
    out.on('finish', () => {
      if (settled) return;
      settled = true;
      detach();
      resolve(bytes);
    });
    const piping = pipeBody(req, out, shaper);
  });
}
