import { DubdeskError } from '../../../shared/contract/errors';
import { METHODS, type DubdeskApi, type MethodName } from '../../../shared/contract/methods';
import { callerOf } from '../../../shared/contract/proxy';
import type { BrowserFile, FaceBridge, MediaKind } from '../../../shared/face';
import {
  MAX_STAGED_BYTES,
  MEDIA_TOKEN_PARAM,
  DOWNLOAD_TOKEN_PARAM,
  MediaTokenSchema,
  ROUTES,
  ReplySchema,
  STAGE_MODIFIED_PARAM,
  STAGE_NAME_PARAM,
  StagedFileSchema,
  type MediaToken,
} from '../../../shared/serve-protocol';
import { claimEarly } from './early-fetch';
import { WebEvents, type LinkWatcher } from './web-events';
import { bearer, callInit, eventsInit, sessionRefused } from './web-requests';

export interface WebBridgeOptions {
  /** Where `dubdesk serve` answers; '' (the default) is the page's own origin. */
  baseUrl?: string;
  /** The session token, for a program; a browser's page has none: its session cookie goes instead. */
  token?: string;
  fetch?: typeof fetch;
  /** `serve` refused the session (it stopped or restarted): the page says how to get a new address. */
  onSessionRefused?: () => void;
  /** Told when serve stops answering the event stream, and when it answers again (serve-link.ts). */
  link?: LinkWatcher;
}

/** The web bridge: the FaceBridge, plus what its owner may wait for or end. */
export interface WebBridge extends FaceBridge {
  /** Resolves once media URLs carry a media token (the first few calls of a page are done by then anyway). */
  readonly ready: Promise<void>;
  /** Ends the event stream. */
  close(): void;
}

const unreachable = () =>
  new DubdeskError('offline', 'Dubdesk (`dubdesk serve`) is not answering', {
    remedy: 'Start `dubdesk serve` again and open the address it prints.',
  });

/** A reply of `dubdesk serve`, checked: a value, or the contract error it carries. */
async function readReply(res: Response, refused?: () => void): Promise<unknown> {
  if (sessionRefused(res.status, res.headers.get('www-authenticate'))) refused?.();
  let json: unknown;
  try {
    json = await res.json();
  } catch {
    throw new DubdeskError('internal', `dubdesk serve answered HTTP ${res.status} without a contract reply`);
  }
  const reply = ReplySchema.safeParse(json);
  if (!reply.success)
    throw new DubdeskError('internal', `dubdesk serve answered HTTP ${res.status} with a malformed reply`);
  if (!reply.data.ok) throw DubdeskError.from(reply.data.error);
  return reply.data.value;
}

function asBlob(file: BrowserFile): Blob {
  if (typeof Blob !== 'undefined' && file instanceof Blob) return file;
  throw new DubdeskError('bad-request', `${file.name} is not a file the browser can read`);
}

/**
 * `dubdesk serve`'s contract over HTTP: every method of the table is `POST /api/<method>` with a Bearer
 * token, every answer is checked against the method's schema, events come over one SSE stream. Free of
 * React and of the DOM beyond fetch (XMLHttpRequest only for upload progress, where there is one), so the
 * contract's own test suite runs it under Node.
 */
export function createWebBridge(opts: WebBridgeOptions): WebBridge {
  const base = (opts.baseUrl ?? '').replace(/\/+$/, '');
  // The page's first calls may already be on their way (first-calls.ts): those are taken, not sent again.
  const fetchFn = claimEarly(opts.fetch ?? globalThis.fetch.bind(globalThis));
  const auth = () => bearer(opts.token);

  async function post(path: string, body: unknown): Promise<unknown> {
    let res: Response;
    try {
      res = await fetchFn(`${base}${path}`, callInit(opts.token, body));
    } catch {
      throw unreachable();
    }
    return readReply(res, opts.onSessionRefused);
  }

  async function call(name: MethodName, input: unknown): Promise<unknown> {
    const value = await post(ROUTES.method(name), input);
    const checked = METHODS[name].output.safeParse(value);
    if (!checked.success)
      throw new DubdeskError('internal', `${name}: the answer of dubdesk serve broke the contract`);
    return checked.data;
  }

  // Media tokens: see electron/web/media-tokens.ts for why media URLs carry one of their own.
  let media: { token: MediaToken; at: number } | null = null;
  let minting: Promise<void> | null = null;
  const mintMediaToken = (): Promise<void> =>
    (minting ??= post(ROUTES.mediaToken, null)
      .then((v) => {
        media = { token: MediaTokenSchema.parse(v), at: Date.now() };
      })
      .catch(() => {
        /* the next mediaUrl tries again */
      })
      .finally(() => {
        minting = null;
      }));
  const ready = mintMediaToken();
  const mediaQuery = (): string => {
    // Renewed ahead of time: URLs already handed out stay valid while they are being played.
    if (!media || Date.now() - media.at > (media.token.idleSeconds * 1000) / 2) void mintMediaToken();
    return media ? `?${MEDIA_TOKEN_PARAM}=${encodeURIComponent(media.token.token)}` : '';
  };
  /** A download link's query: its own token, which plays nothing (see media-tokens.ts). */
  const downloadQuery = (): string => {
    if (!media || Date.now() - media.at > (media.token.idleSeconds * 1000) / 2) void mintMediaToken();
    return media ? `?${DOWNLOAD_TOKEN_PARAM}=${encodeURIComponent(media.token.download)}` : '';
  };

  function upload(file: Blob, name: string, progress: (sent: number) => void): Promise<string> {
    // The file's own time goes with it: the staged copy keeps it, so the same file dropped again is known.
    const modified =
      typeof File !== 'undefined' && file instanceof File
        ? `&${STAGE_MODIFIED_PARAM}=${Math.trunc(file.lastModified)}`
        : '';
    const url = `${base}${ROUTES.staging}?${STAGE_NAME_PARAM}=${encodeURIComponent(name)}${modified}`;
    const headers = { ...auth(), 'content-type': 'application/octet-stream' };
    const staged = (v: unknown) => StagedFileSchema.parse(v).path;
    if (typeof XMLHttpRequest === 'undefined') {
      // No upload progress without XHR (Node): a file-backed Blob is still streamed, not loaded.
      return fetchFn(url, { method: 'POST', headers, body: file })
        .then(
          (res) => readReply(res, opts.onSessionRefused),
          () => {
            throw unreachable();
          },
        )
        .then(staged);
    }
    // The browser streams a File from the disk; XHR is the one API that reports upload progress.
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', url);
      for (const [k, v] of Object.entries(headers)) xhr.setRequestHeader(k, v);
      xhr.upload.onprogress = (e) => progress(e.loaded);
      xhr.onerror = () => reject(unreachable());
      xhr.onload = () =>
        readReply(
          new Response(xhr.responseText, {
            status: xhr.status,
            headers: { 'www-authenticate': xhr.getResponseHeader('www-authenticate') ?? '' },
          }),
          opts.onSessionRefused,
        )
          .then(staged)
          .then(resolve, reject);
      xhr.send(file);
    });
  }

  const events = new WebEvents(
    `${base}${ROUTES.events}`,
    (signal) => eventsInit(opts.token, signal),
    fetchFn,
    opts.onSessionRefused,
    opts.link,
  );
  const notHere = (what: string) =>
    Promise.reject(
      new DubdeskError('conflict', `${what} is not possible from the browser`, {
        remedy: 'The files are on the machine that runs `dubdesk serve`.',
      }),
    );

  const methods = callerOf(call);

  const bridge: Omit<WebBridge, Exclude<keyof DubdeskApi, 'subscribe'>> = {
    shell: 'web',
    canReveal: false,
    ready,
    subscribe: (listener, opened) => events.subscribe(listener, opened),
    close: () => events.close(),
    mediaUrl(jobId: number, kind: MediaKind): string {
      return `${base}${ROUTES.media(jobId, kind)}${mediaQuery()}`;
    },
    downloadUrl(jobId: number, index: number): string {
      return `${base}${ROUTES.download(jobId, index)}${downloadQuery()}`;
    },
    resultsZipUrl(jobIds: readonly number[], name: string): string {
      const q = downloadQuery();
      const rest = `jobs=${jobIds.join(',')}&name=${encodeURIComponent(name)}`;
      return `${base}${ROUTES.resultsZip}${q ? `${q}&${rest}` : `?${rest}`}`;
    },
    async uploadsFolder(): Promise<string> {
      const res = await fetchFn(`${base}${ROUTES.uploadsFolder}`, { headers: auth() }).catch(() => {
        throw unreachable();
      });
      return StagedFileSchema.parse(await readReply(res, opts.onSessionRefused)).path;
    },
    async stageFiles(files, onProgress) {
      // The server refuses these too, but only after the browser began sending gigabytes.
      const huge = files.find((f) => f.size > MAX_STAGED_BYTES);
      if (huge)
        throw new DubdeskError(
          'too-large',
          `${huge.name} is over ${MAX_STAGED_BYTES / 1024 ** 3} GiB, the most a browser may hand over`,
          { remedy: 'Add it by its path on the machine that runs `dubdesk serve`.' },
        );
      const total = files.reduce((n, f) => n + f.size, 0);
      const paths: string[] = [];
      let done = 0;
      for (const file of files) {
        paths.push(await upload(asBlob(file), file.name, (sent) => onProgress?.(done + sent, total)));
        done += file.size;
        onProgress?.(done, total);
      }
      return paths;
    },
    pickFiles: async () => null,
    pickFolder: async () => null,
    showInFolder: () => notHere('showing a file in its folder'),
    openPath: () => notHere('opening a file'),
  };
  return { ...methods, ...bridge };
}
