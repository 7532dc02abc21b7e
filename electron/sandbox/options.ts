import { z } from 'zod';

const rate = z.number().min(0).max(1);

/**
 * Bad dubs made on purpose, for QC: `short` (its sound 4 s shorter than the source's), `loud` (24 dB louder,
 * clipped), `silence` (6 s of silence in the middle), and broken subtitles: `subtitles-unreadable` (a cue
 * whose timing does not parse), `subtitles-order` (two cues swapped), `subtitles-past-end` (a cue 5 s past
 * the end), `subtitles-fast` (a cue of 80 characters in one second).
 */
export const BAD_DUBS = [
  'short',
  'loud',
  'silence',
  'subtitles-unreadable',
  'subtitles-order',
  'subtitles-past-end',
  'subtitles-fast',
] as const;
export const BadDubSchema = z.enum(BAD_DUBS);
export type BadDub = z.infer<typeof BadDubSchema>;

/** Each fault and its range; none is on unless set. */
const FAULT_FIELDS = {
  /** Share of API calls answered 502 (v2 create's 502 carries the dub id; nothing is dispatched). */
  rate502: rate,
  /** Share of requests whose connection is dropped before any work is done. */
  rateReset: rate,
  /** Share of mutating calls that do their work, then drop the connection instead of answering. */
  rateLostResponse: rate,
  /** Share of dubs that end Failed in the pipeline (no charge). */
  rateDubFailure: rate,
  /** Share of output downloads cut off halfway. */
  rateTruncate: rate,
  /** Share of output downloads refused with 403 as if their link had expired. */
  rateExpireLink: rate,
  /** Share of v2 creates from a `source_url` refused with 400 as unreachable (before anything is fetched). */
  rateRefuseSourceUrl: rate,
  /**
   * Share of error answers and failed dubs whose message quotes the caller's API key back (raw, and in a
   * failed dub's message JSON-escaped and URL-encoded too), as a careless service does.
   */
  rateQuoteKey: rate,
  /**
   * How every list of dubs (v2, v1 and legacy) breaks: `error` answers 500; `huge` sends 100 MiB; `deep` nests
   * 200,000 arrays; `others` lists only other dubs (v2: full pages and 1e15 of them; v1 and legacy: none of
   * the caller's). Details (`GET /api/v2/dubs/{id}`) still answer.
   */
  listFault: z.enum(['none', 'error', 'huge', 'deep', 'others']),
  /** Dubs into these languages come out bad in these ways (`{ "fr": ["short"] }`); none by default. */
  badDubs: z.record(
    z.string().regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/),
    z.array(BadDubSchema).max(BAD_DUBS.length),
  ),
  /** Extra delay before every answer, in milliseconds. */
  latencyMs: z.number().int().min(0).max(600_000),
  /**
   * The service's clock runs this far from the machine's (negative: behind): its `created_at` times and its
   * `Date` header. Links are signed and checked on the same clock, so they keep working.
   */
  clockSkewSeconds: z.number().min(-864_000).max(864_000),
  /**
   * How `created_at` is written: `iso` (UTC with `Z`), `naive` (no offset, as Python's `isoformat()` of a
   * naive datetime writes it: `2026-11-27T19:43:06.123456`), or `unparseable` (not a date a parser reads).
   */
  timestamps: z.enum(['iso', 'naive', 'unparseable']),
  /** Names are stored in this Unicode form (macOS sends `Café` decomposed, NFD; a service may keep NFC). */
  normalizeNames: z.enum(['none', 'NFC']),
  /**
   * The calls that commit a dub to a charge (v2 create, v1 and legacy start) do their work and save it, then
   * hold their answer until this is set back to false: a cancel can arrive while the answer is in flight.
   */
  holdCreates: z.boolean(),
  /**
   * Lists of v2 dubs (`GET /api/v2/dubs`) hold their answer until this is set back to false, then answer with
   * what the service has then: a pause can arrive while a client waits for one.
   */
  holdLists: z.boolean(),
};

/** Every fault's setting; an unknown name is refused (a typo must not pass for "no fault"). */
export const FaultSettings = z.strictObject(FAULT_FIELDS);
/** A change to some faults: only those named change (`PUT /__sandbox/faults`, the options' `faults`). */
export const FaultPatch = FaultSettings.partial();
export type FaultPatch = z.infer<typeof FaultPatch>;

export const NO_FAULTS: FaultSettings = {
  rate502: 0,
  rateReset: 0,
  rateLostResponse: 0,
  rateDubFailure: 0,
  rateTruncate: 0,
  rateExpireLink: 0,
  rateRefuseSourceUrl: 0,
  rateQuoteKey: 0,
  listFault: 'none',
  badDubs: {},
  latencyMs: 0,
  clockSkewSeconds: 0,
  timestamps: 'iso',
  normalizeNames: 'none',
  holdCreates: false,
  holdLists: false,
};
export type FaultSettings = z.infer<typeof FaultSettings>;

export const SandboxUser = z.object({ apiKey: z.string().min(1), seconds: z.number() });
export type SandboxUser = z.infer<typeof SandboxUser>;

export const SandboxOptions = z.object({
  /** Listen exactly here (0: any free port). Absent: the port of the last run in `stateDir`, else `preferredPort`, else any. */
  port: z.number().int().min(0).max(65535).optional(),
  /** Tried when `port` is absent and the state directory remembers none; a free port if it is taken. */
  preferredPort: z.number().int().min(1).max(65535).optional(),
  host: z.string().default('127.0.0.1'),
  apiKey: z.string().min(1).default('sandbox-key'),
  balance: z.number().default(3600),
  users: z.array(SandboxUser).default([]),
  pipelineSeconds: z.number().positive().default(20),
  linkTtlSeconds: z.number().positive().default(3600),
  uploadTtlSeconds: z.number().positive().default(3600),
  /** The spec's upload limit: v2's `file` (1 GB, 413 beyond), and a v2 `source_url`'s fetch. */
  maxUploadBytes: z
    .number()
    .int()
    .positive()
    .default(1024 ** 3),
  /** The object storage's own limit on a pre-signed PUT (v1, legacy): the spec states none, so none by default. */
  maxStorageBytes: z.number().int().positive().nullable().default(null),
  /**
   * A connection that has not sent its whole request head by then is closed (slowloris). Bodies have no
   * deadline: an upload over a slow link may take as long as it needs.
   */
  headersTimeoutMs: z.number().int().positive().default(20_000),
  allowPrivateSourceUrls: z.boolean().default(false),
  /**
   * Shapes the receiving side of uploads to this many MiB/s, shared by all uploads at once (a token
   * bucket), as a real uplink would be: for trying the app and for the link benchmarks. Absent: no limit.
   */
  linkRateMiBps: z.number().positive().max(100_000).optional(),
  /**
   * Shapes the sending side of downloads (the outputs) the same way, shared by all downloads at once: with
   * `linkRateMiBps`, a link both ways (the wire benchmark). Absent: no limit.
   */
  downlinkRateMiBps: z.number().positive().max(100_000).optional(),
  /**
   * False: no ffprobe/ffmpeg even where installed; the media is read by an in-process parser and the results
   * are copies of the upload. For benchmarks of a client, where the service's own work is not measured.
   */
  ffmpeg: z.boolean().default(true),
  seed: z.number().int().default(1),
  faults: FaultPatch.default({}),
  /** Token the `/__sandbox/*` test controls require in `x-sandbox-admin`; random when absent. */
  adminToken: z.string().min(16).optional(),
  /** Where uploads and artifacts live; a fresh temporary folder when absent (removed on stop). */
  dataDir: z.string().optional(),
  /**
   * Keeps everything a restart needs here (accounts, balances, dubs, uploads, artifacts, the clock, the
   * link-signing secret, the port): stop and start again with the same directory and links, dubs and
   * balances carry on. Uploads and artifacts live here too (`dataDir` is then ignored).
   */
  stateDir: z.string().min(1).optional(),
});
export type SandboxOptions = z.infer<typeof SandboxOptions>;
export type SandboxOptionsInput = z.input<typeof SandboxOptions>;
