import type { FastifyError, FastifyInstance } from 'fastify';
import { sendError } from './replies';

/**
 * Whatever fastify refuses before a handler runs (a body that is not JSON, too big, of another type) and
 * any route that does not exist answer as contract errors too, in words, never with a stack trace.
 */
export function contractErrors(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    const status = err.statusCode ?? 500;
    if (status === 413)
      return sendError(reply, { code: 'too-large', message: 'the request body is too large' }, 413);
    if (status === 415)
      return sendError(
        reply,
        { code: 'bad-request', message: 'send the arguments as JSON (Content-Type: application/json)' },
        415,
      );
    if (status >= 400 && status < 500)
      return sendError(
        reply,
        { code: 'bad-request', message: `the request was refused: ${err.message}` },
        status,
      );
    req.log.error({ err }, 'unexpected error');
    return sendError(reply, { code: 'internal', message: 'unexpected error in dubdesk serve (see its log)' });
  });
  app.setNotFoundHandler((req, reply) =>
    sendError(reply, {
      code: 'not-found',
      message: `nothing here: ${req.method} ${req.url.split('?', 1)[0]}`,
    }),
  );
}
