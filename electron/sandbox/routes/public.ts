import type { LangEntry } from '../../../shared/api/common';
import { LANGUAGES, flagEmoji } from '../../../shared/languages';
import { keyFingerprint } from '../admin-auth';
import { HttpError } from '../http-error';
import { readJson, route, sendJson, type Route } from '../http';
import { FaultPatch } from '../options';
import type { SandboxService } from '../service';
import { z } from 'zod';

export function publicRoutes(): Route[] {
  return [
    route('GET', '/api/langs', 'public', (ctx) => {
      const langs: LangEntry[] = LANGUAGES.map((l) => ({
        code: l.code,
        name: l.name,
        emoji: flagEmoji(l.country),
        flagUrl: new URL(`/flags/${(l.country ?? l.code).toLowerCase()}.svg`, ctx.origin).toString(),
      }));
      sendJson(ctx, 200, langs);
    }),
    route('GET', '/flags/:name', 'public', (ctx) => {
      const label = (ctx.params.name ?? '')
        .replace(/\.svg$/, '')
        .toUpperCase()
        .slice(0, 3);
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="60" height="40" viewBox="0 0 60 40"><rect width="60" height="40" rx="4" fill="#34495e"/><text x="30" y="26" font-family="sans-serif" font-size="16" fill="#fff" text-anchor="middle">${label.replace(/[^A-Z]/g, '')}</text></svg>`;
      ctx.res.writeHead(200, { 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=86400' });
      ctx.res.end(svg);
    }),
  ];
}

/** Ten years either way: beyond that dates stop being representable and links could not be signed. */
const ClockBody = z.object({ advanceSeconds: z.number().min(-315_360_000).max(315_360_000) });
const BalanceBody = z.object({ seconds: z.number().min(-1e12).max(1e12) });

/** Why a faults body was refused, in one line: which key, and what it must be. */
function faultsRefused(error: z.ZodError): string {
  const known = Object.keys(FaultPatch.shape).join(', ');
  const why = error.issues.map((i) =>
    i.code === 'unrecognized_keys'
      ? `unknown fault ${i.keys.join(', ')} (the faults are ${known})`
      : `${i.path.join('.') || 'the body'}: ${i.message}`,
  );
  return `PUT /__sandbox/faults refused: ${why.join('; ')}`;
}

/** Test controls, outside the service's surface: inspect state, change faults, move the clock. Token only. */
export function adminRoutes(svc: SandboxService): Route[] {
  return [
    route('GET', '/__sandbox/state', 'admin', (ctx) => {
      sendJson(ctx, 200, {
        accounts: [...svc.state.accounts.values()].map((a) => ({
          id: a.id,
          keyFingerprint: keyFingerprint(a.apiKey),
          seconds: a.seconds,
        })),
        dubs: [...svc.state.dubs.values()].map((d) => ({
          id: d.id,
          ownerId: d.ownerId,
          generation: d.generation,
          name: d.name,
          destLang: d.destLang,
          externalStatusId: d.externalStatusId,
          queued: d.queuedAt !== null,
          frozen: d.frozen,
          charged: d.charged,
        })),
        ledger: svc.state.ledger,
        faults: svc.faults.get(),
        faultsFired: svc.faults.fired,
        requests: Object.fromEntries(svc.state.requests),
        ingest: svc.state.ingest,
      });
    }),
    route('PUT', '/__sandbox/faults', 'admin', async (ctx) => {
      const patch = FaultPatch.safeParse(await readJson(ctx.req));
      if (!patch.success) throw new HttpError(400, faultsRefused(patch.error));
      sendJson(ctx, 200, svc.faults.set(patch.data));
    }),
    route('POST', '/__sandbox/clock', 'admin', async (ctx) => {
      const body = ClockBody.safeParse(await readJson(ctx.req));
      if (!body.success) throw new HttpError(400, 'Expected { "advanceSeconds": number }');
      svc.state.clockOffsetMs += body.data.advanceSeconds * 1000;
      svc.pipeline.advanceAll();
      sendJson(ctx, 200, { offsetSeconds: svc.state.clockOffsetMs / 1000 });
    }),
    route('PUT', '/__sandbox/accounts/:id/balance', 'admin', async (ctx) => {
      const account = svc.state.accounts.get(ctx.params.id ?? '');
      if (!account) throw new HttpError(404, 'No such account');
      const body = BalanceBody.safeParse(await readJson(ctx.req));
      if (!body.success) throw new HttpError(400, 'Expected { "seconds": number }');
      svc.state.setBalance(account, body.data.seconds);
      sendJson(ctx, 200, { seconds: account.seconds });
    }),
  ];
}
