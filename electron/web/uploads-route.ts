import type { FastifyInstance } from 'fastify';
import { toContractError } from '../../shared/contract/errors';
import type { DubdeskApi } from '../../shared/contract/methods';
import { ROUTES } from '../../shared/serve-protocol';
import type { FolderEnv } from './downloads-folder';
import { sendError, sendValue } from './replies';
import { uploadsFolder } from './uploads-folder';

/** `GET /api/uploads-folder`: where a batch of uploaded files is saved, for the Add sheet to say so. */
export function uploadsFolderRoute(app: FastifyInstance, api: DubdeskApi, folders?: FolderEnv): void {
  app.get(ROUTES.uploadsFolder, async (_req, reply) => {
    try {
      return sendValue(reply, { path: await uploadsFolder(api, folders) });
    } catch (e) {
      return sendError(reply, toContractError(e));
    }
  });
}
