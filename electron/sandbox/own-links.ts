import { copyFile, link } from 'node:fs/promises';
import { OutputTypeSchema } from '../../shared/api/common';
import { HttpError } from './http-error';
import type { UrlSigner } from './signing';
import type { Artifact, SandboxState } from './state';

export const OUTPUT_PATH = /^\/storage\/outputs\/(?<id>[^/]+)\/(?<type>[^/]+)\/[^/]+$/;

/**
 * The artifact behind one of this sandbox's own output links, or null when `raw` is not such a link.
 * The sandbox's storage stands for the service's public storage, so its links are valid sources; an
 * expired or forged one is refused like any unreachable URL (400).
 */
export function ownOutput(
  raw: string,
  origin: string,
  signer: UrlSigner,
  state: SandboxState,
): Artifact | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  const m = OUTPUT_PATH.exec(url.pathname);
  if (url.origin !== origin || !m?.groups) return null;
  const verdict = signer.verify('GET', url);
  if (verdict === 'expired')
    throw new HttpError(400, 'source_url is unreachable: the output link has expired');
  if (verdict !== 'ok')
    throw new HttpError(400, 'source_url is unreachable: the output link signature does not match');
  const dub = state.dubs.get(m.groups.id ?? '');
  const type = OutputTypeSchema.safeParse(m.groups.type);
  const artifact = type.success && dub?.externalStatusId === 5 ? dub.artifacts?.[type.data] : undefined;
  if (!artifact) throw new HttpError(400, 'source_url is unreachable: no such output');
  return artifact;
}

/** The new dub's upload is the stored object itself: a hard link when the file system allows, else a copy. */
export async function storeFromArtifact(artifact: Artifact, dest: string): Promise<void> {
  await link(artifact.path, dest).catch(() => copyFile(artifact.path, dest));
}
