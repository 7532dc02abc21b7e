import {
  ProjectLegacy,
  ProjectLegacyList,
  StartDubLegacyResponse,
  type InitDubLegacyBody,
} from '../../../shared/api/legacy';
import type { SourceIdentity } from './file-body';
import { Http, type ProgressListener } from './http';
import type { HttpLimits } from './limits';
import { serviceEndpoint } from './links';
import type { Secrets } from './scrub';
import { Uploads } from './upload';

/** `{legacy_api_url}/v1`: the same three steps as v1, with the `ApiKey` header, 17 languages and mp4 only. */
export class LegacyClient {
  private readonly http: Http;
  private readonly root: (path: string) => string;
  private readonly uploads: Uploads;

  constructor(
    legacyUrl: string,
    apiKey: string,
    options: { limits?: Partial<HttpLimits>; uploads?: Uploads; secrets?: Secrets } = {},
  ) {
    this.http = new Http({
      auth: { header: 'ApiKey', key: apiKey },
      limits: options.limits ?? {},
      secrets: options.secrets,
    });
    this.root = (path) => serviceEndpoint(legacyUrl, `v1/${path}`);
    this.uploads = options.uploads ?? new Uploads(options.limits);
  }

  async list(signal?: AbortSignal): Promise<ProjectLegacyList> {
    return this.http.json(ProjectLegacyList, this.root('dubs'), { signal });
  }

  async init(body: InitDubLegacyBody, signal?: AbortSignal): Promise<ProjectLegacy> {
    return this.http.json(ProjectLegacy, this.root('init-dub'), { method: 'POST', json: body, signal });
  }

  upload(
    url: string,
    path: string,
    signal?: AbortSignal,
    onProgress?: ProgressListener,
    expect?: SourceIdentity,
  ): Promise<void> {
    return this.uploads.put(url, path, 'video/mp4', signal, onProgress, expect);
  }

  async start(id: string, signal?: AbortSignal): Promise<void> {
    return this.http
      .json(StartDubLegacyResponse, this.root('start-dub'), { method: 'POST', json: { id }, signal })
      .then(() => undefined);
  }
}
