import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { DubdeskError } from '../../../shared/contract/errors';
import { ServiceModeSchema } from '../../../shared/contract/account';
import { privateFile } from '../home/home';

/** `service.json`: which service to use and where; the key too when no OS key store holds it. */
export const StoredService = z.object({
  mode: ServiceModeSchema.optional(),
  baseUrl: z.string().url().optional(),
  legacyUrl: z.string().url().optional(),
  apiKey: z.string().min(1).optional(),
  /**
   * The origins the stored key was entered for (its service and legacy addresses then): the key is sent
   * there and nowhere else. Absent in files written before: the stored addresses are taken.
   */
  keyOrigins: z.array(z.string()).optional(),
  /** The user agreed to keep the key here, where the system has no credential store. */
  fileKeyConsent: z.boolean().optional(),
});
export type StoredService = z.infer<typeof StoredService>;

export const serviceFile = (home: string) => join(home, 'service.json');

export function readStoredService(home: string): StoredService {
  const file = serviceFile(home);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return {};
  }
  if (!text.trim()) return {};
  try {
    const parsed = StoredService.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
  } catch {
    /* fall through */
  }
  throw new DubdeskError('config', `${file} is damaged`, {
    remedy: 'Delete it, then enter the service address and API key again.',
  });
}

/** Written whole (temp file + rename), readable by the user only: it may hold the API key. */
export function writeStoredService(home: string, value: StoredService): void {
  const file = serviceFile(home);
  const tmp = privateFile(`${file}.tmp`);
  writeFileSync(tmp, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, file);
  privateFile(file);
}
