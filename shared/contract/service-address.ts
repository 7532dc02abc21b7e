import { z } from 'zod';

/** This machine by name or number: the only place a key may travel over plain http. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return (
    host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host)
  );
}

/** What the WHATWG URL parser gives (shared/ has no DOM or Node types; both runtimes have the class). */
interface ParsedUrl {
  href: string;
  protocol: string;
  username: string;
  password: string;
  hostname: string;
  origin: string;
  search: string;
  hash: string;
}
const WhatwgUrl = (globalThis as unknown as { URL: new (input: string) => ParsedUrl }).URL;

/** Without trailing slashes, lower-case: how an address and its parsed form are compared. */
const plain = (s: string) => s.replace(/\/+$/, '').toLowerCase();

/**
 * A service address parsed by the same parser that sends the requests (got and `new URL`), or why it is
 * refused. Anything another reader could take for a different host is refused rather than guessed at:
 * `\` (a path separator to the parser, user-info to others), user-info, a query or fragment, spaces and
 * control characters, and any address that does not read back the same once parsed.
 */
export function parseServiceAddress(address: string): { url: ParsedUrl } | { problem: string } {
  // eslint-disable-next-line no-control-regex
  if (/[\\\s\u0000-\u001f\u007f@#?]/.test(address))
    return { problem: 'a service address has no spaces, \\, @, ? or # in it' };
  let url: ParsedUrl;
  try {
    url = new WhatwgUrl(address);
  } catch {
    return { problem: 'not an address (https://host[:port][/path])' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { problem: 'an http:// or https:// address' };
  if (url.username || url.password || url.search || url.hash)
    return { problem: 'a service address has no user name, password, query or fragment' };
  if (plain(url.href) !== plain(address))
    return { problem: `the address reads as ${url.href}: write it that way` };
  return { url };
}

/** Whether a key may be sent to this address: https anywhere, plain http to this machine only. */
export function keySafeAddress(address: string): boolean {
  const p = parseServiceAddress(address);
  return 'url' in p && (p.url.protocol === 'https:' || isLoopbackHost(p.url.hostname));
}

/** The origin (scheme, host, port) an address sends to, as the parser says; a key is bound to origins. */
export function originOf(address: string): string | null {
  const p = parseServiceAddress(address);
  return 'url' in p ? p.url.origin : null;
}

/**
 * A service address the API key will be sent to: https, or plain http on this machine only (a sandbox or
 * a test). Anything else would put the key on the network in the clear.
 */
export const ServiceAddressSchema = z
  .string()
  .max(2048)
  .superRefine((address, ctx) => {
    const p = parseServiceAddress(address);
    if ('problem' in p) ctx.addIssue({ code: 'custom', message: p.problem });
    else if (!keySafeAddress(address))
      ctx.addIssue({
        code: 'custom',
        message:
          'plain http:// is only for this machine (localhost, 127.0.0.1): use https:// for the service',
      });
  });
