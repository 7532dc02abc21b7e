import { openAsBlob } from 'node:fs';
import { DubListV2, DubV2, ProfileV2, V2_MAX_PAGE_SIZE } from '../../../shared/api/v2';
import { Http, type ProgressListener } from './http';
import type { HttpLimits } from './limits';

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
  private readonly root: string;

  constructor(baseUrl: string, apiKey: string, options: { limits?: Partial<HttpLimits> } = {}) {
    this.http = new Http({ auth: { header: 'apikey', key: apiKey }, limits: options.limits ?? {} });
    this.root = `${baseUrl.replace(/\/+$/, '')}/api/v2`;
  }

  me(signal?: AbortSignal): Promise<ProfileV2> {
    return this.http.json(ProfileV2, `${this.root}/me`, { signal });
  }

  /** Multipart straight from disk: the file is a lazily read Blob, so memory stays flat whatever its size. */
  async createFromFile(
    path: string,
    mime: string,
    fields: CreateV2Fields,
    signal?: AbortSignal,
    onProgress?: ProgressListener,
  ): Promise<DubV2> {
    const form = new FormData();
    form.set('dest_lang', fields.dest_lang);
    form.set('source_lang', fields.source_lang);
    form.set('name', fields.name);
    if (fields.duration !== undefined) form.set('duration', String(fields.duration));
    form.set('is_studio_quality', String(fields.is_studio_quality));
    form.set('file', await openAsBlob(path, { type: mime }), fields.name);
    return this.http.json(DubV2, `${this.root}/dubs`, {
      method: 'POST',
      body: form,
      signal,
      upload: true,
      onUpload: onProgress,
    });
  }

  createFromUrl(sourceUrl: string, fields: CreateV2Fields, signal?: AbortSignal): Promise<DubV2> {
    return this.http.json(DubV2, `${this.root}/dubs`, {
      method: 'POST',
      json: { ...fields, source_url: sourceUrl },
      signal,
    });
  }

  list(page: number, pageSize = V2_MAX_PAGE_SIZE, signal?: AbortSignal): Promise<DubListV2> {
    return this.http.json(DubListV2, `${this.root}/dubs`, {
      searchParams: { page, page_size: pageSize },
      signal,
    });
  }

  get(id: string, signal?: AbortSignal): Promise<DubV2> {
    return this.http.json(DubV2, `${this.root}/dubs/${encodeURIComponent(id)}`, { signal });
  }
}
