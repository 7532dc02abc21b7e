import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Http, type ProgressListener } from './http';

/** Pre-signed PUT for v1 and legacy: raw bytes streamed from disk, and deliberately no API key. */
const presigned = new Http({ timeoutMs: 60_000 });

export async function putPresigned(
  url: string,
  path: string,
  mime: string,
  signal?: AbortSignal,
  onProgress?: ProgressListener,
): Promise<void> {
  const { size } = await stat(path);
  await presigned.send(
    url,
    {
      method: 'PUT',
      body: createReadStream(path),
      headers: { 'content-type': mime, 'content-length': String(size) },
      signal,
    },
    onProgress,
  );
}
