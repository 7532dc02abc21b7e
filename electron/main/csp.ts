/**
 * The page's Content Security Policy, sent as a header with every response of the app protocol (the
 * renderer's index.html carries the same rules in a meta tag for web mode). Scripts come from the app
 * itself only; media and posters from the media protocol; nothing from the network.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: dubdesk-media:",
  "media-src 'self' dubdesk-media:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-src 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Parses a policy into its directives (name -> sources), for checks. */
export function directives(policy: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) out.set(name.toLowerCase(), sources);
  }
  return out;
}
