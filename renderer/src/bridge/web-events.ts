import { createParser } from 'eventsource-parser';
import { EngineEventSchema, type EventListener } from '../../../shared/contract/events';
import { HEARTBEAT_HEADER } from '../../../shared/serve-routes';
import { sessionRefused } from './web-requests';
import { silenceWatch } from './silence-watch';

/**
 * Heartbeats a stream may miss before it is taken for dead: a half-open connection (a laptop that slept, a
 * Wi-Fi change, a proxy that dropped it silently) never says it ended, and the page would hear nothing.
 */
const SILENT_HEARTBEATS = 2.5;
/** The shortest silence taken for a dead stream, however short serve's heartbeat (a test's): a busy loop is not one. */
const MIN_SILENCE_MS = 1000;

/** The first try after a stream ends comes at once (or nearly): it tells a stopped serve from a break. */
const FIRST_RETRY_MS = 250;

/** Told when serve stops answering the stream (with when it was last heard) and when it answers again. */
export interface LinkWatcher {
  lost(since: number): void;
  back(): void;
}

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
 * A try that finds no serve (the connection refused, an error status) tells the link watcher at once. A
 * stream that stays silent for 2.5 of serve's heartbeats is closed and opened again, as after a break.
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
    private readonly link?: LinkWatcher,
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
    // When serve was last heard: the end of the last open stream (this page's numbers are from then).
    let heardAt: number | null = null;
    while (!signal.aborted) {
      // Ends this stream alone (the silence watch), or with the bridge.
      const dead = new AbortController();
      const streamSignal = AbortSignal.any([signal, dead.signal]);
      try {
        const res = await this.fetchFn(this.url, this.init(streamSignal));
        // A session the server does not take will not be taken on the next try either.
        if (sessionRefused(res.status, res.headers.get('www-authenticate'))) this.refused?.();
        if (res.status === 401 || res.status === 403) return this.firstTryFailed(tried);
        if (res.ok && res.body) {
          parser.reset();
          tried = true;
          this.streamOpen = true;
          this.link?.back();
          this.tellOpened();
          const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
          const silence = silenceWatch(silenceOf(res), () => dead.abort());
          try {
            for (;;) {
              const { value, done } = await reader.read();
              if (done) break;
              silence.heard();
              parser.feed(value);
            }
          } finally {
            silence.stop();
            // A stream that ended or broke was heard until now; one given up for silence, until its last byte.
            heardAt = dead.signal.aborted ? silence.lastHeardAt : Date.now();
          }
        } else this.link?.lost(heardAt ?? Date.now());
      } catch {
        // The stream broke or was closed: reconnect below, unless closed. A broken stream was still
        // heard until now; a try that found no serve was not.
        if (signal.aborted) return;
        if (!this.streamOpen) this.link?.lost(heardAt ?? Date.now());
      }
      if (signal.aborted) return;
      const justBroke = this.streamOpen;
      this.streamOpen = false;
      this.firstTryFailed(tried);
      tried = true;
      await pause(justBroke ? Math.min(FIRST_RETRY_MS, retryMs) : retryMs, signal);
    }
  }

  /** The page fetches what it shows even when no stream opened at first: its answers say what is wrong. */
  private firstTryFailed(tried: boolean): void {
    if (!tried) this.tellOpened();
  }
}

/**
 * How long a stream may stay silent: 2.5 of the heartbeats serve says it keeps; 0 (never taken for dead)
 * when it does not say.
 */
function silenceOf(res: Response): number {
  const heartbeatMs = Number(res.headers.get(HEARTBEAT_HEADER));
  if (!Number.isFinite(heartbeatMs) || heartbeatMs <= 0) return 0;
  return Math.max(heartbeatMs * SILENT_HEARTBEATS, MIN_SILENCE_MS);
}
