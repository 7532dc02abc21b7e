import { createParser } from 'eventsource-parser';
import { EngineEventSchema, type EventListener } from '../../../shared/contract/events';
import { sessionRefused } from './web-requests';

/** Longest event line kept while it arrives (a job view is a few KB; this is a guard, not a limit). */
const MAX_EVENT_CHARS = 4 * 1024 * 1024;

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });

/**
 * One Server-Sent Events stream per bridge, read with streaming fetch (it sends the Authorization header,
 * which EventSource cannot, and runs in Node too), shared by every listener: a browser allows only six
 * connections to a host, and a stream per component would starve the API calls. Opened by the first
 * listener, closed with the last. When it breaks it reconnects after the server's `retry:` hint; the new
 * stream is a new subscription whose `seq` starts again at 1, which tells listeners to fetch again.
 */
export class WebEvents {
  private readonly listeners = new Set<EventListener>();
  private controller: AbortController | null = null;

  constructor(
    private readonly url: string,
    /** The request's options (web-requests.ts eventsInit), with this signal to end it. */
    private readonly init: (signal: AbortSignal) => RequestInit,
    private readonly fetchFn: typeof fetch,
    /** `serve` refused the session: the stream ends for good. */
    private readonly refused?: () => void,
  ) {}

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    if (!this.controller) {
      this.controller = new AbortController();
      void this.run(this.controller.signal);
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.close();
    };
  }

  close(): void {
    this.controller?.abort();
    this.controller = null;
  }

  private dispatch(data: string): void {
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      return;
    }
    const parsed = EngineEventSchema.safeParse(json);
    if (!parsed.success) return;
    for (const listener of [...this.listeners]) {
      try {
        listener(parsed.data);
      } catch {
        /* one listener failing must not starve the others */
      }
    }
  }

  private async run(signal: AbortSignal): Promise<void> {
    let retryMs = 2000;
    const parser = createParser({
      onEvent: (m) => this.dispatch(m.data),
      onRetry: (ms) => (retryMs = Math.min(Math.max(ms, 250), 60_000)),
      maxBufferSize: MAX_EVENT_CHARS,
    });
    while (!signal.aborted) {
      try {
        const res = await this.fetchFn(this.url, this.init(signal));
        // A session the server does not take will not be taken on the next try either.
        if (sessionRefused(res.status, res.headers.get('www-authenticate'))) this.refused?.();
        if (res.status === 401 || res.status === 403) return;
        if (res.ok && res.body) {
          parser.reset();
          const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            parser.feed(value);
          }
        }
      } catch {
        /* the stream broke or was closed: reconnect below, unless closed */
      }
      if (!signal.aborted) await pause(retryMs, signal);
    }
  }
}
