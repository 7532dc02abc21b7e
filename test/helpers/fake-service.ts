import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DubV2 } from '../../shared/api/v2';
import { LANGUAGES } from '../../shared/languages';
import { PROFILE_V2, hostile, json, readBody, type Fixture, type Seen } from './hostile';

export interface FakeServiceOptions {
  /** What the service measures (and charges, rounded up) for every dub. */
  measuredDuration?: number;
  /** Overrides of every dub the service shows (a name, a failure message…). */
  dub?: Partial<DubV2>;
  /** Overrides of the `/me` profile. */
  profile?: Partial<typeof PROFILE_V2>;
  /** Overrides of the language list (`code` and `name` of each entry). */
  languages?: { code: string; name: string }[];
  /** Answers `GET /files/<dub id>/<output type>`, the output links. Default: a few bytes of "media". */
  download?: (req: IncomingMessage, res: ServerResponse, seen: Seen) => void | Promise<void>;
  /** A file name at the end of each output link (`/files/<id>/<type>/<name>`), as a CDN names its files. */
  linkFile?: (type: string) => string;
  /** Answers `POST /api/v2/dubs` instead of creating a dub (after the body is read). */
  create?: (res: ServerResponse) => boolean;
  /** The outputs each dub offers a link for. Default: the dubbed video and its subtitles. */
  outputs?: readonly string[];
}

/**
 * An output link serving `media` for the video and a short WebVTT for the subtitles, honouring
 * `Range: bytes=N-` (206 with Content-Range) as storage does, so a download can resume.
 */
export function servingBytes(media: Buffer) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const body = req.url?.endsWith('subtitle')
      ? Buffer.from('WEBVTT\n\n00:00.000 --> 00:01.000\nhola\n')
      : media;
    const type = req.url?.endsWith('subtitle') ? 'text/vtt' : 'video/mp4';
    const from = Number(/^bytes=(\d+)-$/.exec(req.headers.range ?? '')?.[1] ?? 0);
    if (from > 0 && from < body.length) {
      res.writeHead(206, {
        'content-type': type,
        'content-length': body.length - from,
        'content-range': `bytes ${from}-${body.length - 1}/${body.length}`,
      });
      res.end(body.subarray(from));
      return;
    }
    res.writeHead(200, { 'content-type': type, 'content-length': body.length });
    res.end(body);
  };
}

export interface FakeService extends Fixture {
  dubs: Map<string, DubV2>;
  /** Requests for output links only. */
  downloads(): Seen[];
}

/**
 * The part of the v2 service a file job uses, and nothing else: a profile, the language list, a create that
 * makes a dub already completed (charged at once), the paged list, the details with output links on this
 * same server. Tests make it misbehave where they need (the output links, the texts it returns).
 */
export async function fakeService(o: FakeServiceOptions = {}): Promise<FakeService> {
  const dubs = new Map<string, DubV2>();
  let base = '';
  const links = (id: string) =>
    Object.fromEntries(
      (o.outputs ?? ['translated_mp4', 'translated_subtitle']).map((t) => {
        const url = `${base}/files/${id}/${t}${o.linkFile ? `/${o.linkFile(t)}` : ''}`;
        return [t, { url, download_url: url }];
      }),
    );
  const fixture = await hostile(async (req, res, seen) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const path = url.pathname;
    if (path === '/api/langs')
      return json(
        res,
        200,
        (o.languages ?? LANGUAGES).map((l) => ({ code: l.code, name: l.name, emoji: '', flagUrl: '' })),
      );
    if (path === '/api/v2/me') return json(res, 200, { ...PROFILE_V2, seconds: 10_000, ...o.profile });
    if (path === '/api/v2/dubs' && req.method === 'POST') {
      await readBody(req, seen);
      if (o.create?.(res)) return;
      const id = `dub-${dubs.size + 1}`;
      const dub: DubV2 = {
        id,
        dubbing_id: id,
        project_id: 'p1',
        name: 'clip.mp4',
        type: 'video/mp4',
        source_lang: 'en',
        dest_lang: 'es',
        external_status_id: 5,
        progress_percentage: 100,
        external_error_message: null,
        duration: o.measuredDuration ?? 3.2,
        measured_duration: o.measuredDuration ?? 3.2,
        is_studio_quality: false,
        source: 'file',
        created_at: new Date().toISOString(),
        outputs: links(id),
        ...o.dub,
      };
      dubs.set(id, dub);
      return json(res, 200, dub);
    }
    if (path === '/api/v2/dubs') {
      const all = [...dubs.values()].reverse();
      return json(res, 200, {
        dubs: all,
        pagination: { page: 1, page_size: 100, total: all.length, total_pages: 1 },
      });
    }
    const detail = /^\/api\/v2\/dubs\/([^/]+)$/.exec(path);
    if (detail) {
      const dub = dubs.get(decodeURIComponent(detail[1] ?? ''));
      return dub ? json(res, 200, dub) : json(res, 404, { error: 'Dub not found' });
    }
    if (path.startsWith('/files/')) {
      if (o.download) return o.download(req, res, seen);
      const body = path.endsWith('subtitle') ? 'WEBVTT\n\n' : '\u0000\u0000\u0000\u0018ftypmp42 fake media';
      res.writeHead(200, { 'content-type': path.endsWith('subtitle') ? 'text/vtt' : 'video/mp4' });
      res.end(body);
      return;
    }
    json(res, 404, { error: `No endpoint at ${path}` });
  });
  base = fixture.url;
  return {
    ...fixture,
    dubs,
    downloads: () => fixture.seen.filter((s) => s.url.startsWith('/files/')),
  };
}
