import {
  DubPageV1,
  CompletedV1,
  DubV1,
  type DubListV1,
  InitDubV1Response,
  ProfileV1,
  StartDubV1Response,
  type InitDubV1Body,
} from '../../../shared/api/v1';
import type { SourceIdentity } from './file-body';
import { Http, type ProgressListener } from './http';
import { checkItems, type RefusedDub } from './list-items';
import type { HttpLimits } from './limits';
import { serviceEndpoint } from './links';
import type { Secrets } from './scrub';
import { Uploads } from './upload';

/** `{base_url}/api/v1`: init, pre-signed PUT, start; the list returns every dub at once. */
export class V1Client {
  private readonly http: Http;
  private readonly root: (path: string) => string;
  private readonly uploads: Uploads;

  constructor(
    baseUrl: string,
    apiKey: string,
    options: { limits?: Partial<HttpLimits>; uploads?: Uploads; secrets?: Secrets } = {},
  ) {
    this.http = new Http({
      auth: { header: 'apikey', key: apiKey },
      limits: options.limits ?? {},
      secrets: options.secrets,
    });
    this.root = (path) => serviceEndpoint(baseUrl, `api/v1/${path}`);
    this.uploads = options.uploads ?? new Uploads(options.limits);
  }

  async me(signal?: AbortSignal): Promise<ProfileV1> {
    return this.http.json(ProfileV1, this.root('me'), { signal });
  }

  /** Every dub; one that breaks the schema is left out of `dubs` and named in `refused`. */
  async list(signal?: AbortSignal): Promise<{ dubs: DubListV1; refused: RefusedDub[] }> {
    const raw = await this.http.json(DubPageV1, this.root('dubs'), { signal });
    const { items, refused } = checkItems(DubV1, raw, CompletedV1);
    return { dubs: items, refused };
  }

  async init(body: InitDubV1Body, signal?: AbortSignal): Promise<InitDubV1Response> {
    return this.http.json(InitDubV1Response, this.root('init-dub'), { method: 'POST', json: body, signal });
  }

  upload(
    url: string,
    path: string,
    mime: string,
    signal?: AbortSignal,
    onProgress?: ProgressListener,
    expect?: SourceIdentity,
  ): Promise<void> {
    return this.uploads.put(url, path, mime, signal, onProgress, expect);
  }

  async start(fileId: string, signal?: AbortSignal): Promise<StartDubV1Response> {
    return this.http.json(StartDubV1Response, this.root('start-dub'), {
      method: 'POST',
      json: { fileId },
      signal,
    });
  }
}
