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
 * stream is a new subscription whose `seq` starts again at 1. Each listener's `opened` runs when a stream is
 * open (the server subscribed it before it answered the headers), so what it fetches then misses nothing.
 */
export class WebEvents {
  private readonly listeners = new Set<EventListener>();
  private readonly openedCalls = new Map<EventListener, () => void>();
  private controller: AbortController | null = null;
  private streamOpen = false;

  constructor(
    private readonly url: string,
    /** The request's options (web-requests.ts eventsInit), with this signal to end it. */
    private readonly init: (signal: AbortSignal) => RequestInit,
    private readonly fetchFn: typeof fetch,
    /** `serve` refused the session: the stream ends for good. */
    private readonly refused?: () => void,
  ) {}

  subscribe(listener: EventListener, opened?: () => void): () => void {
    this.listeners.add(listener);
    if (opened) this.openedCalls.set(listener, opened);
    if (!this.controller) {
      this.controller = new AbortController();
      void this.run(this.controller.signal);
    } else if (opened && this.streamOpen) queueMicrotask(opened);
    return () => {
      this.listeners.delete(listener);
      this.openedCalls.delete(listener);
      if (this.listeners.size === 0) this.close();
    };
  }

  close(): void {
    this.controller?.abort();
    this.controller = null;
    this.streamOpen = false;
  }

  private tellOpened(): void {
    for (const opened of [...this.openedCalls.values()]) {
      try {
        opened();
      } catch {
        /* one listener failing must not starve the others */
      }
    }
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
    let tried = false;
    while (!signal.aborted) {
      try {
        const res = await this.fetchFn(this.url, this.init(signal));
        // A session the server does not take will not be taken on the next try either.
        if (sessionRefused(res.status, res.headers.get('www-authenticate'))) this.refused?.();
        if (res.status === 401 || res.status === 403) return this.firstTryFailed(tried);
        if (res.ok && res.body) {
          parser.reset();
          tried = true;
          this.streamOpen = true;
          this.tellOpened();
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
      if (signal.aborted) return;
      this.streamOpen = false;
      this.firstTryFailed(tried);
      tried = true;
      await pause(retryMs, signal);
    }
  }

  /** The page fetches what it shows even when no stream opened at first: its answers say what is wrong. */
  private firstTryFailed(tried: boolean): void {
    if (!tried) this.tellOpened();
  }
}
