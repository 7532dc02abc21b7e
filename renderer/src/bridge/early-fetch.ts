/**
 * Requests sent before the page's code has finished loading, handed to the first identical request made
 * later (same method, address, authorization and body) instead of going out a second time. Each is handed
 * over once; one nobody asks for is aborted after a while (it may be a stream holding one of the browser's
 * six connections to the host). Free of zod and React, so it runs before their modules are evaluated.
 */

interface Early {
  response: Promise<Response>;
  controller: AbortController;
}

const UNCLAIMED_MS = 10_000;
const waiting = new Map<string, Early>();

function keyOf(url: string, init: RequestInit | undefined): string {
  const headers = new Headers(init?.headers);
  const body = typeof init?.body === 'string' ? init.body : '';
  return `${init?.method ?? 'GET'} ${url} ${headers.get('authorization') ?? ''} ${body}`;
}

/**
 * Sends these requests now; the first identical request made through claimEarly() receives the answer.
 * Returns their responses, in order.
 */
export function sendEarly(requests: readonly { url: string; init: RequestInit }[]): Promise<Response>[] {
  return requests.map(({ url, init }) => {
    const controller = new AbortController();
    const response = fetch(url, { ...init, signal: controller.signal });
    // Rejections are the claimer's to see; an unclaimed one must not be reported as unhandled.
    response.catch(() => undefined);
    const key = keyOf(url, init);
    waiting.set(key, { response, controller });
    setTimeout(() => {
      if (waiting.get(key)?.controller !== controller) return;
      waiting.delete(key);
      controller.abort();
    }, UNCLAIMED_MS);
    return response;
  });
}

/** A fetch that answers from a matching early request when there is one, else fetches. */
export function claimEarly(fetchFn: typeof fetch): typeof fetch {
  return (input, init) => {
    if (waiting.size === 0 || typeof input !== 'string') return fetchFn(input, init);
    const key = keyOf(input, init);
    const early = waiting.get(key);
    if (!early) return fetchFn(input, init);
    waiting.delete(key);
    // The claimer's signal ends the early request (an event stream closed by its reader).
    const signal = init?.signal;
    if (signal?.aborted) early.controller.abort();
    else signal?.addEventListener('abort', () => early.controller.abort(), { once: true });
    return early.response;
  };
}
