import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A fresh secret: 32 random bytes, base64url (43 characters, safe in a URL fragment or query). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/**
 * Whether `given` is `expected`, in time independent of where they differ. Both are hashed first, so
 * their lengths never matter either (timingSafeEqual needs equal lengths and would leak a length check).
 */
export function sameToken(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  return timingSafeEqual(digest(given), digest(expected));
}

/** The token of an `Authorization: Bearer <token>` header, if that is what it holds. */
export function bearerOf(header: string | undefined): string | undefined {
  // The scheme is case-insensitive (RFC 9110 11.1); the token is not.
  const m = /^Bearer[ ]+([A-Za-z0-9_-]{1,512})[ ]*$/i.exec(header ?? '');
  return m?.[1];
}
