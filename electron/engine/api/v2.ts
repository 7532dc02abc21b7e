import {
  CompletedV2,
  DubPageV2,
  DubV2,
  ProfileV2,
  V2_MAX_PAGE_SIZE,
  type DubListV2,
} from '../../../shared/api/v2';
import { checkItems, type RefusedDub } from './list-items';
import type { SourceReads } from './body-stream';
import { multipartFileBody, type SourceIdentity } from './file-body';
import { Http, type ProgressListener } from './http';
import { headerTime } from './service-time';
import type { HttpLimits } from './limits';
import { serviceEndpoint } from './links';
import type { RateCap } from './rate-cap';
import type { Secrets } from './scrub';

export interface DubPageOfV2 extends DubListV2 {
  refused: RefusedDub[];
  /** The id of every item that has one, in the order listed (newest first). */
  order: string[];
  /** The service's own clock when it answered (its `Date` header), or null. */
  serviceNow: number | null;
}

export interface CreateV2Fields {
  dest_lang: string;
  source_lang: string;
  name: string;
  duration?: number;
  is_studio_quality: boolean;
}

/** `{base_url}/api/v2`: one create call (file or URL), paged list, details with fresh signed links. */
export class V2Client {
  private readonly http: Http;
  private readonly root: (path: string) => string;

  constructor(
    baseUrl: string,
    apiKey: string,
    options: {
      limits?: Partial<HttpLimits>;
      reads?: SourceReads | undefined;
      secrets?: Secrets;
      uploadCap?: RateCap | undefined;
    } = {},
  ) {
    this.http = new Http({
      auth: { header: 'apikey', key: apiKey },
      limits: options.limits ?? {},
      reads: options.reads,
      secrets: options.secrets,
      uploadCap: options.uploadCap,
    });
    this.root = (path) => serviceEndpoint(baseUrl, `api/v2/${path}`);
  }

  async me(signal?: AbortSignal): Promise<ProfileV2> {
    return this.http.json(ProfileV2, this.root('me'), { signal });
  }

  /** Multipart streamed from disk in large reads: memory stays flat whatever the file's size. */
  async createFromFile(
    path: string,
    mime: string,
    fields: CreateV2Fields,
    signal?: AbortSignal,
    onProgress?: ProgressListener,
    expect?: SourceIdentity,
  ): Promise<DubV2> {
    const form = await multipartFileBody(
      {
        dest_lang: fields.dest_lang,
        source_lang: fields.source_lang,
        name: fields.name,
        ...(fields.duration !== undefined ? { duration: String(fields.duration) } : {}),
        is_studio_quality: String(fields.is_studio_quality),
      },
      { field: 'file', path, name: fields.name, type: mime },
      expect,
    );
    const dub = await this.http.json(DubV2, this.root('dubs'), {
      method: 'POST',
      body: form,
      headers: { 'content-type': form.contentType, 'content-length': String(form.length) },
      signal,
      upload: true,
      onUpload: onProgress,
    });
    // The answer can arrive before the last write's progress event: the whole body went out.
    onProgress?.(form.length, form.length);
    return dub;
  }

  async createFromUrl(sourceUrl: string, fields: CreateV2Fields, signal?: AbortSignal): Promise<DubV2> {
    return this.http.json(DubV2, this.root('dubs'), {
      method: 'POST',
      json: { ...fields, source_url: sourceUrl },
      signal,
    });
  }

  /**
   * A page of dubs; a dub that breaks the schema is left out of `dubs` and named in `refused`. `order`: the
   * ids of every item as listed (newest first), and `serviceNow` the service's clock (its `Date` header).
   */
  async list(page: number, pageSize = V2_MAX_PAGE_SIZE, signal?: AbortSignal): Promise<DubPageOfV2> {
    const url = this.root('dubs');
    const { data: raw, headers } = await this.http.jsonReply(DubPageV2, url, {
      searchParams: { page, page_size: pageSize },
      signal,
    });
    const { items, refused } = checkItems(DubV2, raw.dubs, CompletedV2);
    const order = raw.dubs.flatMap((d) => {
      const id = (d as { id?: unknown } | null)?.id;
      return typeof id === 'string' ? [id] : [];
    });
    return {
      dubs: items,
      pagination: raw.pagination,
      refused,
      order,
      serviceNow: headerTime(headers.date),
    };
  }

  async get(id: string, signal?: AbortSignal): Promise<DubV2> {
    return this.http.json(DubV2, this.root(`dubs/${encodeURIComponent(id)}`), { signal });
  }
}
