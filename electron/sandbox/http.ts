import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import { readSmallBody } from './body';
import { HttpError } from './http-error';

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  params: Record<string, string>;
  /** Root of the links the sandbox hands out: its own base URL, never the request's Host header. */
  origin: string;
  /** Resolves once every change so far is saved; an answer waits for it. */
  durable: () => Promise<void>;
  /** Fault injection, asked once the work is done: drop the connection instead of answering. */
  shouldLoseResponse: () => boolean;
}

/** Drops the connection without an answer: fault injection, or a response that can no longer be sent. */
export function dropConnection(ctx: Pick<Ctx, 'req' | 'res'>): void {
  (ctx.res.socket ?? ctx.req.socket)?.destroy();
  ctx.res.destroy();
}

/** Writes a whole response; a failure to write (the socket went away) ends in a dropped connection. */
export function sendText(
  res: ServerResponse,
  status: number,
  headers: Record<string, string | number>,
  text: string,
): void {
  if (res.headersSent || res.destroyed) {
    res.destroy();
    return;
  }
  try {
    res.writeHead(status, { ...headers, 'content-length': Buffer.byteLength(text) });
    res.end(text);
  } catch {
    res.destroy();
  }
}

export const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Answers once what the handler changed is saved: a client never hears of a change a restart would lose.
 * A success may instead be lost on purpose (fault injection), after the work is done and saved.
 */
export function respond(
  ctx: Ctx,
  status: number,
  headers: Record<string, string | number>,
  text: string,
): void {
  ctx.durable().then(
    () => {
      if (status < 300 && ctx.shouldLoseResponse()) dropConnection(ctx);
      else sendText(ctx.res, status, headers, text);
    },
    (e: unknown) => {
      console.error('[sandbox] could not save the state:', e instanceof Error ? e.message : e);
      sendText(
        ctx.res,
        500,
        { 'content-type': JSON_TYPE },
        JSON.stringify({ error: 'Could not save the state' }),
      );
    },
  );
}

export function sendJson(ctx: Ctx, status: number, body: unknown): void {
  respond(ctx, status, { 'content-type': JSON_TYPE }, JSON.stringify(body));
}

export function sendError(res: ServerResponse, err: HttpError): void {
  sendText(
    res,
    err.status,
    { 'content-type': JSON_TYPE },
    JSON.stringify({ error: err.message, ...err.extra }),
  );
}

const MAX_JSON_BYTES = 1024 * 1024;

/** For calls whose spec names `Content-Type: application/json`: another type is a 400, as an empty body would be. */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    throw new HttpError(
      400,
      `Send the parameters as JSON with Content-Type: application/json (got '${type || 'none'}')`,
    );
  }
  return readJson(req);
}

export async function readJson(req: IncomingMessage): Promise<unknown> {
  const text = (await readSmallBody(req, MAX_JSON_BYTES)).toString('utf8');
  if (!text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, 'Body is not valid JSON');
  }
}

/** Validates a body against a schema; the message names the first bad field. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const r = schema.safeParse(body);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const field = issue?.path.join('.') || 'body';
  throw new HttpError(400, `Invalid or missing parameter '${field}': ${issue?.message ?? 'invalid'}`);
}

export type Handler = (ctx: Ctx) => Promise<void> | void;

export interface Route {
  /** `METHOD /path/:param`, for request counts. */
  name: string;
  method: string;
  pattern: RegExp;
  handler: Handler;
  /** Which injected faults apply: api calls get 502s; mutating calls can lose their response. */
  kind: 'api' | 'api-mutating' | 'api-create' | 'storage' | 'public' | 'admin';
}

export function route(method: string, path: string, kind: Route['kind'], handler: Handler): Route {
  const pattern = new RegExp(`^${path.replace(/:(\w+)/g, '(?<$1>[^/]+)')}$`);
  return { name: `${method} ${path}`, method, pattern, handler, kind };
}
