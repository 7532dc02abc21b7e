import { z } from 'zod';

/** This machine by name or number: the only place a key may travel over plain http. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return (
    host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host)
  );
}

const DEFAULT_PORT: Record<string, string> = { http: '80', https: '443' };

/**
 * The scheme, host and port of an http(s) address, lower-case and without a default port; null when it is
 * not one. (shared/ has no DOM or Node types, so no URL class here.)
 */
function partsOf(address: string): { scheme: string; host: string; port: string } | null {
  const m = /^(https?):\/\/(?:[^@/?#]*@)?(\[[0-9a-f:.]+\]|[^/:?#[\]]+)(?::(\d{1,5}))?(?:[/?#]|$)/i.exec(
    address.trim(),
  );
  if (!m?.[1] || !m[2]) return null;
  const scheme = m[1].toLowerCase();
  const port = m[3] && m[3] !== DEFAULT_PORT[scheme] ? String(Number(m[3])) : '';
  return { scheme, host: m[2].toLowerCase(), port };
}

/** Whether a key may be sent to this address: https anywhere, plain http to this machine only. */
export function keySafeAddress(address: string): boolean {
  const p = partsOf(address);
  return p !== null && (p.scheme === 'https' || isLoopbackHost(p.host));
}

/** The origin (scheme, host, port) an address belongs to, as `https://host:port`; a key is bound to origins. */
export function originOf(address: string): string | null {
  const p = partsOf(address);
  return p && `${p.scheme}://${p.host}${p.port ? `:${p.port}` : ''}`;
}

/**
 * A service address the API key will be sent to: https, or plain http on this machine only (a sandbox or
 * a test). Anything else would put the key on the network in the clear.
 */
export const ServiceAddressSchema = z
  .url({ protocol: /^https?$/, error: 'an http:// or https:// address' })
  .max(2048)
  .refine(keySafeAddress, {
    error: 'plain http:// is only for this machine (localhost, 127.0.0.1): use https:// for the service',
  });
