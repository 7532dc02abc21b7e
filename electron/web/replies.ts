import type { FastifyReply } from 'fastify';
import type { ContractError, ErrorCode } from '../../shared/contract/errors';
import type { Reply } from '../../shared/serve-protocol';

/** The HTTP status of each contract error (the body says the code; the status is for tools and logs). */
export const STATUS_OF: Record<ErrorCode, number> = {
  'bad-request': 400,
  'bad-language': 400,
  'not-media': 400,
  config: 400,
  auth: 401,
  credits: 402,
  permission: 403,
  'not-found': 404,
  conflict: 409,
  busy: 409,
  canceled: 409,
  'too-large': 413,
  internal: 500,
  service: 502,
  'remote-failed': 502,
  'remote-missing': 502,
  offline: 503,
  disk: 507,
};

/** Sends `{ ok: false, error }` with the status of its code, or `status` when the transport knows better. */
export function sendError(reply: FastifyReply, error: ContractError, status = STATUS_OF[error.code]) {
  const body: Reply = { ok: false, error };
  return reply.code(status).header('cache-control', 'no-store').send(body);
}

export function sendValue(reply: FastifyReply, value: unknown) {
  const body: Reply = { ok: true, value };
  return reply.code(200).header('cache-control', 'no-store').send(body);
}

/** A request without a valid session token. */
export function sendUnauthorized(reply: FastifyReply) {
  return sendError(reply.header('www-authenticate', 'Bearer realm="dubdesk"'), {
    code: 'auth',
    message: 'this request needs the session token of `dubdesk serve`',
    remedy: 'Open the address `dubdesk serve` printed when it started (each address works once).',
  });
}
