import { mkdir } from 'node:fs/promises';
import { join, relative, isAbsolute } from 'node:path';
import type { AddRequestInput, BatchRequestInput } from '../../shared/contract/batches';
import type { DubdeskApi } from '../../shared/contract/methods';
import { downloadsFolder, type FolderEnv } from './downloads-folder';

/**
 * Where a batch with files sent from the browser saves its results when no folder is chosen ("Beside each
 * source"): such a file's own folder is serve's hidden staging folder, which no user would look in. The
 * folder the user last saved a batch to from the browser, else the default output folder of the settings,
 * else `Dubdesk` in the Downloads folder.
 */
export async function uploadsFolder(api: DubdeskApi, o: FolderEnv = {}): Promise<string> {
  const settings = await api.getSettings();
  return settings.lastOutDir || settings.defaults.outDir || join(downloadsFolder(o), 'Dubdesk');
}

const inside = (root: string, path: string) => {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
};

/**
 * The engine's api as `serve` offers it: `estimate` and `add` of a batch holding uploaded files, with no
 * folder chosen, get the uploads folder (made when the batch is added). Everything else is the engine's.
 */
export function withUploadsFolder(api: DubdeskApi, stagingRoot: string, o: FolderEnv = {}): DubdeskApi {
  async function fill<T extends BatchRequestInput>(req: T, make: boolean): Promise<T> {
    if (req.outDir || !req.inputs.some((i) => inside(stagingRoot, i))) return req;
    const outDir = await uploadsFolder(api, o);
    if (make) await mkdir(outDir, { recursive: true });
    return { ...req, outDir };
  }
  const own: Partial<DubdeskApi> = {
    estimate: async (req: BatchRequestInput) => api.estimate(await fill(req, false)),
    add: async (req: AddRequestInput) => api.add(await fill(req, true)),
  };
  return new Proxy(api, {
    get(target, prop) {
      if (prop in own) return own[prop as keyof DubdeskApi];
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
