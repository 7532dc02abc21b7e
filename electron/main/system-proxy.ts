/**
 * The system's proxy settings (what Chromium resolves: the OS settings, WPAD or a PAC script), handed to the
 * engine as the environment variables its HTTP layer reads. The engine's HTTP is Node's, which knows no
 * system proxy. A proxy the user named in the environment wins; the proxy the system picks for the service's
 * address (or, without one, for a public address) serves every request of the engine.
 */
const NAMED = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'ALL_PROXY', 'all_proxy'];
/** Resolved when no service address is known yet: a public host, as the service's is. */
const PUBLIC_ADDRESS = 'https://www.example.com/';

/** The first proxy of a PAC answer (`PROXY host:port; DIRECT`) as a URL; null for DIRECT or SOCKS only. */
export function proxyUrlOf(pac: string): string | null {
  for (const entry of pac.split(';')) {
    const [kind, where] = entry.trim().split(/\s+/);
    if (!where) continue;
    if (/^PROXY$/i.test(kind ?? '')) return `http://${where}`;
    if (/^HTTPS$/i.test(kind ?? '')) return `https://${where}`;
  }
  return null;
}

/** The variables to add to the engine's environment: none when the user named a proxy or there is none. */
export async function systemProxyEnv(
  resolveProxy: (url: string) => Promise<string>,
  env: NodeJS.ProcessEnv,
): Promise<Record<string, string>> {
  if (NAMED.some((name) => env[name])) return {};
  const pac = await resolveProxy(env.DUBDESK_BASE_URL || PUBLIC_ADDRESS).catch(() => 'DIRECT');
  const proxy = proxyUrlOf(pac);
  if (!proxy) return {};
  return { HTTPS_PROXY: proxy, HTTP_PROXY: proxy, NO_PROXY: env.NO_PROXY ?? env.no_proxy ?? 'localhost' };
}
