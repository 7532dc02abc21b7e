import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { HttpError } from './http-error';

export const ADMIN_HEADER = 'x-sandbox-admin';

export function newAdminToken(): string {
  return randomBytes(24).toString('base64url');
}

/**
 * The test controls change balances, clocks and faults: only a caller that holds the token may use them,
 * and only with a JSON body, which a web page cannot send cross-site without a preflight.
 */
export function checkAdmin(req: IncomingMessage, token: string): void {
  const header = req.headers[ADMIN_HEADER];
  const given = Buffer.from(Array.isArray(header) ? (header[0] ?? '') : (header ?? ''));
  const expected = Buffer.from(token);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new HttpError(401, `Missing or wrong admin token (header ${ADMIN_HEADER})`);
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/json')
      throw new HttpError(415, 'Admin requests take Content-Type: application/json');
  }
}

/** Enough to tell keys apart in a state dump, never enough to use one. */
export function keyFingerprint(apiKey: string): string {
  return createHash('sha256').update(apiKey).digest('hex').slice(0, 12);
}
