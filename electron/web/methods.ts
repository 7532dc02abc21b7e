import type { FastifyInstance } from 'fastify';
import { toContractError } from '../../shared/contract/errors';
import { invoke } from '../../shared/contract/implement';
import { METHOD_NAMES, type DubdeskApi } from '../../shared/contract/methods';
import { handlersOf } from '../../shared/contract/proxy';
import { ROUTES } from '../../shared/serve-protocol';
import { sendError, sendValue } from './replies';

/** Contract bodies are small (a batch of 100,000 paths is the largest): anything bigger is refused (413). */
export const METHOD_BODY_LIMIT = 16 * 1024 * 1024;

/**
 * `POST /api/<method>` for every method of the contract's table, nothing hand-listed. The body goes through
 * the same `invoke()` every transport uses, so HTTP refuses exactly what in-process refuses.
 */
export function methodRoutes(app: FastifyInstance, api: DubdeskApi): void {
  const handlers = handlersOf(api);
  for (const reserved of ['events', 'media-token'])
    if ((METHOD_NAMES as string[]).includes(reserved))
      throw new Error(`a contract method may not be called '${reserved}': /api/${reserved} is taken`);
  for (const name of METHOD_NAMES) {
    app.post(ROUTES.method(name), { bodyLimit: METHOD_BODY_LIMIT }, async (req, reply) => {
      try {
        return sendValue(reply, await invoke(handlers, name, req.body ?? undefined));
      } catch (e) {
        return sendError(reply, toContractError(e));
      }
    });
  }
}
