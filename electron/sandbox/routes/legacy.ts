import { InitDubLegacyBody, LEGACY_FILE_TYPE, StartDubLegacyBody } from '../../../shared/api/legacy';
import { HttpError } from '../http-error';
import { parseBody, readJsonBody, route, sendJson, type Route } from '../http';
import { brokenList } from '../list-faults';
import { projectLegacy, projectLegacyListItem } from '../present';
import type { SandboxService } from '../service';

/** Legacy lives under its own root; the spec shows no error codes for it, so it answers like v1. */
export const LEGACY_ROOT = '/legacy';

export function legacyRoutes(svc: SandboxService): Route[] {
  const p = `${LEGACY_ROOT}/v1`;
  return [
    route('POST', `${p}/init-dub`, 'api-mutating', async (ctx) => {
      const account = svc.authenticate(ctx.req, 'legacy');
      const body = parseBody(InitDubLegacyBody, await readJsonBody(ctx.req));
      svc.checkLanguages(body.source_lang, body.dest_lang, true);
      if (body.fileType !== LEGACY_FILE_TYPE) {
        throw new HttpError(
          400,
          `Unsupported fileType '${body.fileType}': the legacy interface accepts only video/mp4`,
        );
      }
      const dub = svc.state.newDub({
        ownerId: account.id,
        generation: 'legacy',
        name: svc.storedName(body.name),
        type: body.fileType,
        sourceLang: body.source_lang,
        destLang: body.dest_lang,
        duration: body.duration,
        studio: false,
        uploadPath: '',
      });
      dub.uploadPath = svc.uploadPath(dub.id);
      dub.uploadUrl = svc.uploadUrl(dub);
      svc.state.saved(dub);
      sendJson(ctx, 200, projectLegacy(dub, 'api', svc.stamp));
    }),
    route('POST', `${p}/start-dub`, 'api-mutating', async (ctx) => {
      const account = svc.authenticate(ctx.req, 'legacy');
      const { id } = parseBody(StartDubLegacyBody, await readJsonBody(ctx.req));
      svc.startDub(account, id, 'legacy');
      await svc.heldAnswer(ctx);
      sendJson(ctx, 200, { status: 'success' });
    }),
    route('GET', `${p}/dubs`, 'api', async (ctx) => {
      const account = svc.authenticate(ctx.req, 'legacy');
      if (await brokenList(svc.faults, ctx, 'array')) return;
      const projects = svc.state.dubsOf(account.id, (d) => d.generation === 'legacy');
      for (const d of projects) svc.pipeline.advance(d);
      sendJson(
        ctx,
        200,
        projects.map((d) => projectLegacyListItem(d, svc.stamp)),
      );
    }),
  ];
}
