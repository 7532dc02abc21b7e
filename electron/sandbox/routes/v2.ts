import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { fileTypeFromFile } from 'file-type';
import { V2_DEFAULT_PAGE_SIZE, V2_MAX_PAGE_SIZE, CreateDubV2Fields } from '../../../shared/api/v2';
import { AUTO } from '../../../shared/languages';
import { nameFromUrl } from '../../../shared/url-name';
import { HttpError } from '../http-error';
import { parseBody, readJson, respond, route, sendJson, type Ctx, type Route } from '../http';
import { dubV2, profileV2 } from '../present';
import type { SandboxService } from '../service';
import { ownOutput, storeFromArtifact } from '../own-links';
import { fetchSourceUrl } from '../source-url';
import { brokenList } from '../list-faults';
import { readMultipart } from './multipart';

/** Room for multipart boundaries and fields on top of the file itself. */
const MULTIPART_OVERHEAD = 64 * 1024;

function bool(v: string | undefined): boolean | undefined {
  if (v === undefined) return undefined;
  if (/^(true|1|yes)$/i.test(v)) return true;
  if (/^(false|0|no)$/i.test(v)) return false;
  throw new HttpError(400, "Invalid parameter 'is_studio_quality': expected true or false");
}

function num(v: string | undefined, field: string): number | undefined {
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new HttpError(400, `Invalid parameter '${field}': expected a number`);
  return n;
}

/** A plain `video/*` or `audio/*` token: the type is echoed in headers and JSON, so nothing else gets in. */
const MEDIA_TYPE = /^(video|audio)\/[a-z0-9][a-z0-9!#$&^_.+-]{0,100}$/;

async function mediaType(path: string, declared: string | null): Promise<string> {
  const normalized = declared?.trim().toLowerCase();
  if (normalized && MEDIA_TYPE.test(normalized)) return normalized;
  const detected = await fileTypeFromFile(path).catch(() => undefined);
  if (detected && MEDIA_TYPE.test(detected.mime)) return detected.mime;
  throw new HttpError(400, 'The file must be a video or audio file');
}

async function create(svc: SandboxService, ctx: Ctx): Promise<void> {
  const account = svc.authenticate(ctx.req, 'v2');
  svc.requireBalance(account);
  const uploadPath = svc.uploadPath(`v2-${randomUUID()}`);
  const contentType = ctx.req.headers['content-type'] ?? '';
  try {
    let fields: CreateDubV2Fields;
    let name: string;
    let type: string;
    if (contentType.startsWith('multipart/form-data')) {
      const length = Number(ctx.req.headers['content-length']);
      if (length > svc.options.maxUploadBytes + MULTIPART_OVERHEAD) {
        throw new HttpError(413, `File exceeds the ${svc.options.maxUploadBytes}-byte upload limit`);
      }
      const started = Date.now();
      const form = await readMultipart(ctx, uploadPath, svc.options.maxUploadBytes, svc.uplink);
      fields = parseBody(CreateDubV2Fields, {
        ...form.fields,
        duration: num(form.fields.duration, 'duration'),
        is_studio_quality: bool(form.fields.is_studio_quality),
      });
      if (!form.file && !fields.source_url)
        throw new HttpError(400, "Either 'file' or 'source_url' is required");
      if (form.file && fields.source_url)
        throw new HttpError(400, "Send either 'file' or 'source_url', not both");
      if (form.file) {
        svc.state.ingest.fileBytes += form.file.bytes;
        svc.state.received(form.file.bytes, Date.now() - started);
        if (form.file.bytes === 0) throw new HttpError(400, "The 'file' part is empty");
        svc.state.ingest.createsFromFile += 1;
        name = fields.name ?? form.file.filename;
        type = await mediaType(
          uploadPath,
          form.file.mimeType === 'application/octet-stream' ? null : form.file.mimeType,
        );
      } else {
        ({ name, type } = await fetchSource(svc, fields, uploadPath));
      }
    } else if (contentType.startsWith('application/json')) {
      fields = parseBody(CreateDubV2Fields, await readJson(ctx.req));
      if (!fields.source_url)
        throw new HttpError(400, "Either 'file' (multipart) or 'source_url' is required");
      ({ name, type } = await fetchSource(svc, fields, uploadPath));
    } else {
      throw new HttpError(400, 'Send multipart/form-data with a file, or application/json with source_url');
    }
    const sourceLang = fields.source_lang ?? AUTO;
    svc.checkLanguages(sourceLang, fields.dest_lang, false);

    const dub = svc.state.newDub({
      ownerId: account.id,
      generation: 'v2',
      name: svc.storedName(name),
      type,
      sourceLang,
      destLang: fields.dest_lang,
      duration: fields.duration ?? 0,
      studio: fields.is_studio_quality ?? false,
      uploadPath,
    });
    dub.uploaded = true;
    if (svc.faults.roll('rate502')) {
      svc.pipeline.freeze(dub, 'Processing backend unavailable');
      throw new HttpError(502, 'Processing backend unavailable', { id: dub.id });
    }
    svc.pipeline.enqueue(dub);
    await svc.heldAnswer(ctx);
    sendJson(ctx, 201, dubV2(dub, svc.link, svc.stamp));
  } catch (e) {
    if (!(e instanceof HttpError && e.status === 502)) await rm(uploadPath, { force: true });
    throw e;
  }
}

async function fetchSource(
  svc: SandboxService,
  fields: CreateDubV2Fields,
  dest: string,
): Promise<{ name: string; type: string }> {
  const url = fields.source_url ?? '';
  svc.checkLanguages(fields.source_lang ?? AUTO, fields.dest_lang, false);
  const name = fields.name ?? nameFromUrl(url);
  if (svc.faults.roll('rateRefuseSourceUrl'))
    throw new HttpError(400, 'source_url is unreachable: the download was refused');
  // Its own output links are served from its storage, never fetched over the network.
  const own = ownOutput(url, svc.origin, svc.signer, svc.state);
  if (own) {
    await storeFromArtifact(own, dest);
    svc.state.ingest.createsFromOwnLink += 1;
    return { name, type: await mediaType(dest, own.contentType) };
  }
  const fetched = await fetchSourceUrl(url, dest, svc.options.maxUploadBytes, svc.sourcePolicy);
  svc.state.ingest.createsFromUrl += 1;
  svc.state.ingest.urlBytes += fetched.bytes;
  if (fetched.bytes === 0) throw new HttpError(400, 'source_url returned an empty file');
  return { name, type: await mediaType(dest, fetched.contentType) };
}

function pageParam(ctx: Ctx, name: string, fallback: number): number {
  const raw = ctx.url.searchParams.get(name);
  if (raw === null || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1)
    throw new HttpError(400, `Invalid parameter '${name}': expected a whole number of at least 1`);
  return n;
}

export function v2Routes(svc: SandboxService): Route[] {
  return [
    route('GET', '/api/v2/me', 'api', (ctx) =>
      sendJson(ctx, 200, profileV2(svc.authenticate(ctx.req, 'v2'))),
    ),
    route('POST', '/api/v2/dubs', 'api-create', (ctx) => create(svc, ctx)),
    route('GET', '/api/v2/dubs', 'api', async (ctx) => {
      const account = svc.authenticate(ctx.req, 'v2');
      if (await brokenList(svc.faults, ctx, 'v2')) return;
      await svc.faults.hold('lists');
      const page = pageParam(ctx, 'page', 1);
      // Above the maximum the page is clamped to 100 (and says so in `pagination.page_size`), not refused.
      const pageSize = Math.min(V2_MAX_PAGE_SIZE, pageParam(ctx, 'page_size', V2_DEFAULT_PAGE_SIZE));
      const total = svc.state.countOf(account.id);
      const dubs = svc.state.pageOf(account.id, (page - 1) * pageSize, pageSize);
      const pagination = { page, page_size: pageSize, total, total_pages: Math.ceil(total / pageSize) };
      // Only the dubs on this page are brought up to date and presented; each from its cached JSON.
      const items = dubs.map((d) => {
        svc.pipeline.advance(d);
        return svc.presented.dubV2Json(d);
      });
      respond(
        ctx,
        200,
        { 'content-type': 'application/json; charset=utf-8' },
        `{"dubs":[${items.join(',')}],"pagination":${JSON.stringify(pagination)}}`,
      );
    }),
    route('GET', '/api/v2/dubs/:id', 'api', (ctx) => {
      const account = svc.authenticate(ctx.req, 'v2');
      const dub = svc.state.dubs.get(ctx.params.id ?? '');
      if (!dub || dub.ownerId !== account.id) throw new HttpError(404, `Dub ${ctx.params.id} not found`);
      svc.pipeline.advance(dub);
      respond(ctx, 200, { 'content-type': 'application/json; charset=utf-8' }, svc.presented.dubV2Json(dub));
    }),
  ];
}
