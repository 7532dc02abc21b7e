/**
 * The only way anything leaves the app for the browser: https links the app builds itself, checked against
 * an allow-list of prefixes. The page never names a URL to open (its window.open and links are denied).
 */
import type { Settings } from '../../shared/contract/settings';

/** Prefixes of the links the app builds: the configured service's own website (https only). */
export function allowedPrefixes(settings: Pick<Settings, 'service'> | null): string[] {
  const base = settings?.service.mode === 'service' ? settings.service.baseUrl : null;
  if (!base) return [];
  try {
    const u = new URL(base);
    return u.protocol === 'https:' && !u.username && !u.password ? [`${u.origin}/`] : [];
  } catch {
    return [];
  }
}

export function isAllowedLink(url: string, prefixes: readonly string[]): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.protocol !== 'https:' || u.username || u.password) return false;
  const normal = u.toString();
  return prefixes.some((p) => p.startsWith('https://') && p.endsWith('/') && normal.startsWith(p));
}

/** Opens `url` in the browser when it is one of the app's own links; says whether it did. */
export function openAppLink(
  url: string,
  prefixes: readonly string[],
  openExternal: (url: string) => Promise<void>,
): boolean {
  if (!isAllowedLink(url, prefixes)) return false;
  void openExternal(url).catch(() => {});
  return true;
}

/** The service's website, as a link the app built (null when no https service is configured). */
export function serviceWebsite(settings: Pick<Settings, 'service'> | null): string | null {
  return allowedPrefixes(settings)[0] ?? null;
}
