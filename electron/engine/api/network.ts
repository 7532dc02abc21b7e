/**
 * How the engine's HTTP reaches the service from a company network: through the proxy the environment
 * names (`HTTPS_PROXY`, `HTTP_PROXY`, `ALL_PROXY`, minus `NO_PROXY`; the desktop app puts the system's proxy
 * there), never for loopback (the built-in sandbox), and trusting the system's certificate store besides
 * Node's own, so a TLS-inspecting proxy whose root the IT department installed is trusted as a browser
 * trusts it. `NODE_EXTRA_CA_CERTS` is read here too: Electron's fuses keep Node from reading it.
 */
import { readFileSync } from 'node:fs';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import tls, { type SecureContext } from 'node:tls';
import { HttpProxyAgent, HttpsProxyAgent } from 'hpagent';
import { getProxyForUrl } from 'proxy-from-env';

/** Certificates (PEM) a system trusts beyond Node's bundled ones. */
export type TrustStore = () => string[];

const systemStore: TrustStore = () =>
  typeof tls.getCACertificates === 'function' ? tls.getCACertificates('system') : [];
let trustStore = systemStore;
let trusted: { ca: string[]; context: SecureContext } | null = null;
const agents = new Map<string, { http: HttpAgent; https: () => HttpsAgent }>();

export interface Agents {
  http: HttpAgent;
  https?: HttpsAgent;
}

/** Where the system's certificates come from (tests give a stand-in store); forgets the agents made so far. */
export function useTrustStore(store: TrustStore | null): void {
  trustStore = store ?? systemStore;
  trusted = null;
  for (const destroy of made.splice(0)) destroy();
  agents.clear();
}

/** How to close every agent made so far. */
const made: (() => void)[] = [];

/** The PEM certificates in a file; none when it cannot be read. */
function certificatesIn(file: string | undefined): string[] {
  if (!file) return [];
  try {
    return (
      readFileSync(file, 'utf8').match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []
    );
  } catch {
    return [];
  }
}

function trust(): { ca: string[]; context: SecureContext } {
  if (!trusted) {
    const own =
      typeof tls.getCACertificates === 'function'
        ? tls.getCACertificates('default')
        : [...tls.rootCertificates];
    const ca = [...new Set([...own, ...trustStore(), ...certificatesIn(process.env.NODE_EXTRA_CA_CERTS)])];
    trusted = { ca, context: tls.createSecureContext({ ca }) };
  }
  return trusted;
}

const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/** The proxy for a scheme and host as the environment says ('' for none); loopback never goes through one. */
export function proxyFor(scheme: 'http' | 'https', host: string): string {
  if (LOOPBACK.test(host.replace(/:\d+$/, ''))) return '';
  return getProxyForUrl(`${scheme}://${host}`);
}

/**
 * got's agents for a request to `target`: through the proxy the environment names for its host, trusting the
 * system's store. `reuse`: a keep-alive pool (calls), or a connection of its own that is never reused (a file
 * going out).
 */
export function agentsFor(target: URL, reuse: boolean): Agents {
  const proxies = { http: proxyFor('http', target.host), https: proxyFor('https', target.host) };
  const key = `${proxies.http} ${proxies.https} ${reuse}`;
  let pair = agents.get(key);
  if (!pair) {
    const http = proxies.http
      ? new HttpProxyAgent({ proxy: proxies.http, keepAlive: reuse })
      : new HttpAgent({ keepAlive: reuse });
    made.push(() => http.destroy());
    // Reading the system's store takes a while (hundreds of certificates): only once HTTPS is asked for.
    let https: HttpsAgent | null = null;
    const httpsAgent = () => {
      if (!https) {
        const { ca, context } = trust();
        const options = { keepAlive: reuse, secureContext: context };
        const agent = proxies.https
          ? new HttpsProxyAgent({ ...options, proxy: proxies.https, proxyRequestOptions: { ca } })
          : new HttpsAgent(options);
        made.push(() => agent.destroy());
        https = agent;
      }
      return https;
    };
    pair = { http, https: httpsAgent };
    agents.set(key, pair);
  }
  // got reads every agent it is given: an http:// request (the built-in sandbox) gets no HTTPS agent, so it
  // never reads the store; a redirect from it to https:// takes got's own agent.
  return target.protocol === 'https:' ? { http: pair.http, https: pair.https() } : { http: pair.http };
}
