import { MEDIA_KINDS, type MediaKind } from '../../shared/face';

export const MEDIA_SCHEME = 'dubdesk-media';
export const MEDIA_HOST = 'job';

/** `dubdesk-media://job/<id>/<kind>`: the only form of address the media protocol answers. */
export function mediaUrl(jobId: number, kind: MediaKind): string {
  if (!Number.isSafeInteger(jobId) || jobId <= 0) throw new TypeError(`not a job id: ${String(jobId)}`);
  if (!MEDIA_KINDS.includes(kind)) throw new TypeError(`not a media kind: ${String(kind)}`);
  return `${MEDIA_SCHEME}://${MEDIA_HOST}/${jobId}/${kind}`;
}

/** The job and kind an address names, or null for anything else. */
export function parseMediaUrl(url: string): { jobId: number; kind: MediaKind } | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.protocol !== `${MEDIA_SCHEME}:` || u.host !== MEDIA_HOST || u.search || u.username) return null;
  const m = /^\/([1-9]\d{0,14})\/([a-z]+)$/.exec(u.pathname);
  if (!m?.[1] || !m[2]) return null;
  const kind = m[2] as MediaKind;
  if (!MEDIA_KINDS.includes(kind)) return null;
  return { jobId: Number(m[1]), kind };
}
