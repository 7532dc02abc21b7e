import type { MethodName } from './contract/methods';
import type { MediaKind } from './face';

/**
 * Web mode's wire protocol, shared by `dubdesk serve` (electron/web/) and the renderer's HTTP client
 * (renderer/src/bridge/web.ts), so the two cannot drift apart.
 *
 *   POST /session               {code}: the address's one-time code, traded once for the session token
 *                               (and, for a browser, a session cookie: every tab of that browser then works)
 *   GET  /session               {signedIn}: whether this browser's session cookie is live (the page asks first)
 *   POST /session/link          {address}: a fresh one-time address (`serve --link`)  (Authorization: Bearer <token>)
 *   POST /api/<method>          the contract: JSON input in, a Reply out       (Authorization: Bearer <token>)
 *   GET  /api/events            Server-Sent Events of EngineEvents             (Authorization: Bearer <token>)
 *   POST /api/media-token       read-only tokens: one for the preview's <video>/<track>/<img> URLs (?mt=),
 *                               one for download links (?dt=)                  (Authorization: Bearer <token>)
 *   GET  /api/uploads-folder    {path}: where a batch of uploaded files is saved (Authorization: Bearer <token>)
 *   GET  /media/results.zip?jobs=1,2 the jobs' finished files as one zip          (?dt=<download token>, or Bearer)
 *   POST /staging?name=<name>   a file's bytes as the body; answers its path   (Authorization: Bearer <token>)
 *   GET  /media/<job>/<kind>    a job's own media, with Range                  (?mt=<media token>, or Bearer)
 *   GET  /media/<job>/file/<n>  the job's n-th output file, as a download      (?dt=<download token>, or Bearer)
 *   GET  /...                   the built renderer (no token: the page has to load to trade its code)
 *
 * "Authorization: Bearer <token>" is how a script calls; a browser's own page sends its session cookie instead.
 */
export const ROUTES = {
  session: '/session',
  newLink: '/session/link',
  method: (name: MethodName) => `/api/${name}`,
  events: '/api/events',
  mediaToken: '/api/media-token',
  staging: '/staging',
  uploadsFolder: '/api/uploads-folder',
  resultsZip: '/media/results.zip',
  media: (jobId: number, kind: MediaKind) => `/media/${jobId}/${kind}`,
  download: (jobId: number, index: number) => `/media/${jobId}/file/${index}`,
} as const;

/**
 * The event stream's response header that says how often serve writes on a quiet stream (a heartbeat
 * comment), in ms: a page that hears nothing for much longer takes the stream for dead (a laptop that
 * slept, a Wi-Fi change, a proxy that dropped it without a word) and opens another.
 */
export const HEARTBEAT_HEADER = 'x-dubdesk-heartbeat-ms';

/** The query parameter of a staging request that names the file. */
export const STAGE_NAME_PARAM = 'name';
/** The query parameter of a staging request with the file's own last-modified time (ms since 1970). */
export const STAGE_MODIFIED_PARAM = 'modified';
/** The query parameter that carries a media token (tags like <video> cannot send headers). */
export const MEDIA_TOKEN_PARAM = 'mt';
/** The query parameter that carries a download token (a plain link cannot send headers either). */
export const DOWNLOAD_TOKEN_PARAM = 'dt';
/**
 * Where the one-time code travels in an address `serve` prints or opens: the fragment, never sent to a
 * server. The page trades it for the session token (POST /session); the code then works no more, so one
 * read from `ps` or the browser's history is worth nothing. The token itself never appears in an address.
 */
export const CODE_FRAGMENT_KEY = 'code';

/** Largest file the browser may stage (the service takes 1 GB uploads; room for audio-only and v1). */
export const MAX_STAGED_BYTES = 2 * 1024 ** 3;
