import type { SourceReads } from './body-stream';
import { rawFileBody, type SourceIdentity } from './file-body';
import { Http, type ProgressListener } from './http';
import type { HttpLimits } from './limits';
import { httpUrl } from './links';
import type { RateCap } from './rate-cap';
import type { Secrets } from './scrub';

/**
 * Pre-signed PUTs for v1 and legacy: raw bytes streamed from disk, deliberately no API key, and never
 * redirected (a redirect would mean sending the file again, perhaps to another host).
 */
export class Uploads {
  private readonly http: Http;

  constructor(limits?: Partial<HttpLimits>, reads?: SourceReads, secrets?: Secrets, cap?: RateCap) {
    this.http = new Http({ limits: limits ?? {}, reads, secrets, uploadCap: cap });
  }

  async put(
    url: string,
    path: string,
    mime: string,
    signal?: AbortSignal,
    onProgress?: ProgressListener,
    expect?: SourceIdentity,
  ): Promise<void> {
    httpUrl(url, 'the upload address');
    const file = await rawFileBody(path, expect);
    await this.http.send(url, {
      method: 'PUT',
      body: file,
      headers: { 'content-type': mime, 'content-length': String(file.length) },
      signal,
      upload: true,
      onUpload: onProgress,
      discardBody: true,
    });
    // The answer can arrive before the last write's progress event: the whole body went out.
    onProgress?.(file.length, file.length);
  }
}
