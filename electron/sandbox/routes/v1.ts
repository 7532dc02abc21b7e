import { InitDubV1Body, StartDubV1Body } from '../../../shared/api/v1';
import { HttpError } from '../http-error';
import { parseBody, readJsonBody, route, sendJson, type Route } from '../http';
import { brokenList } from '../list-faults';
import { dubV1, profileV1 } from '../present';
import type { SandboxService } from '../service';

export function v1Routes(svc: SandboxService): Route[] {
  return [
    route('GET', '/api/v1/me', 'api', (ctx) =>
      sendJson(ctx, 200, profileV1(svc.authenticate(ctx.req, 'v1'))),
    ),
    route('GET', '/api/v1/dubs', 'api', async (ctx) => {
      const account = svc.authenticate(ctx.req, 'v1');
      if (await brokenList(svc.faults, ctx, 'array')) return;
      const dubs = svc.state.dubsOf(account.id, (d) => d.generation !== 'legacy');
      for (const d of dubs) svc.pipeline.advance(d);
      sendJson(
        ctx,
        200,
        dubs.map((d) => dubV1(d, svc.stamp)),
      );
    }),
    route('POST', '/api/v1/init-dub', 'api-mutating', async (ctx) => {
      const account = svc.authenticate(ctx.req, 'v1');
      const body = parseBody(InitDubV1Body, await readJsonBody(ctx.req));
      svc.checkLanguages(body.source_lang, body.dest_lang, false);
      if (!/^(video|audio)\/[\w.+-]+$/.test(body.fileType)) {
        throw new HttpError(
          400,
          `Unsupported fileType '${body.fileType}': expected a video/* or audio/* MIME type`,
        );
      }
      const dub = svc.state.newDub({
        ownerId: account.id,
        generation: 'v1',
        name: svc.storedName(body.name),
        type: body.fileType,
        sourceLang: body.source_lang,
        destLang: body.dest_lang,
        duration: body.duration ?? 0,
        studio: body.isStudioQuality ?? false,
        uploadPath: '',
      });
      dub.uploadPath = svc.uploadPath(dub.id);
      dub.uploadUrl = svc.uploadUrl(dub);
      svc.state.saved(dub);
      sendJson(ctx, 200, {
        file: {
          id: dub.id,
          name: dub.name,
          source: 'api',
          externalStatusId: dub.externalStatusId,
          internalStatusId: dub.internalStatusId,
        },
        uploadUrl: dub.uploadUrl,
      });
    }),
    route('POST', '/api/v1/start-dub', 'api-mutating', async (ctx) => {
      const account = svc.authenticate(ctx.req, 'v1');
      const { fileId } = parseBody(StartDubV1Body, await readJsonBody(ctx.req));
      svc.startDub(account, fileId, 'v1');
      await svc.heldAnswer(ctx);
      sendJson(ctx, 200, { success: true, fileId });
    }),
  ];
}
