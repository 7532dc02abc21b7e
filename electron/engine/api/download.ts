import { createHash, type Hash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import {
  createOwnFile,
  entryAt,
  identityOf,
  mayBeOwn,
  NameTakenError,
  openOwnFile,
  type FileIdentity,
} from '../files/own-file';
import { errorFromResponse } from './classify';
import { ApiError, redact } from './errors';
import { DEFAULT_LIMITS, withLimits, type HttpLimits } from './limits';
import { httpUrl, isHttp, redirectTarget } from './links';
import { type PartFiles, type Downloaded, type EarlierPart, tooBig, writePart } from './part-transfer';
import { planDownload } from './ranges';
import { RateCap } from './rate-cap';
import type { Secrets } from './scrub';
import { readCapped, timeoutsFor, Transport, utf8, type ProgressListener } from './transport';

export { HEAD_BYTES, PartWriteError, type Downloaded, type PartFile, type PartFiles } from './part-transfer';

export const diskPartFiles: PartFiles = {
  async open(path, append, expected) {
    const { fh, identity } = append ? await openOwnFile(path, 'append', expected) : await createOwnFile(path);
    return {
      identity,
      async write(chunk) {
        // A nearly full disk takes part of a chunk: write the rest, so that its error is the next one.
        for (let at = 0; at < chunk.length;) at += (await fh.write(chunk, at)).bytesWritten;
      },
      close: () => fh.close(),
    };
  },
};

/** How a part is downloaded: all optional. */
export interface PartOptions {
  signal?: AbortSignal | undefined;
  onProgress?: ProgressListener | undefined;
  /** The caller has just made sure no part exists (a name it picked): no need to look for one. */
  fresh?: boolean;
  /** The most this file may be (see `outputByteCap`): beyond it the transfer stops and the part is removed. */
  maxBytes?: number | null;
}

/** An answer of storage's, opened. */
type Opened = Awaited<ReturnType<Transport['open']>>;

/**
 * Output downloads from pre-signed links. They carry no API key at all, so they may follow storage's
 * redirects anywhere http(s); bytes are written exactly as sent (no decompression), with idle limits only
 * on the body: a big file on a slow line takes as long as it takes.
 */
export class Downloads {
  readonly limits: HttpLimits;
  private readonly transport: Transport;

  constructor(
    limits?: Partial<HttpLimits>,
    private readonly files: PartFiles = diskPartFiles,
    /** Keys to scrub from storage's error answers. */
    private readonly secrets: Secrets = () => [],
    /** The downlink's cap, shared by every download at once. */
    private readonly cap: RateCap = new RateCap(),
  ) {
    this.limits = withLimits(DEFAULT_LIMITS, limits);
    this.transport = new Transport(timeoutsFor('download', this.limits), { 'user-agent': 'Dubdesk' });
  }

  /**
   * Downloads a signed link into `part`, resuming with a Range request from whatever `part` already holds.
   * Resolves only when the file has exactly the length the server promised. A cut transfer rejects as
   * `truncated` or `timeout` (with `progressed` when the part file grew: resume later), an expired link as
   * `forbidden` (fetch fresh links, then resume).
   */
  async toPart(url: string, part: string, options: PartOptions = {}): Promise<Downloaded> {
    const { signal, fresh = false, maxBytes = null } = options;
    const target = httpUrl(url, 'the output link');
    const earlier = await earlierPart(part, fresh, signal);
    const response = await this.transport.open(target, url, {
      method: 'GET',
      headers: earlier.have > 0 ? { range: `bytes=${earlier.have}-` } : undefined,
      signal,
      // Storage's redirects are followed anywhere http(s): the links carry no key.
      follow: isHttp,
    });
    const { status, body: stream } = response;
    if (status >= 300 && status < 400) throw notFollowed(response);
    const contentType = contentTypeOf(response.headers);
    const plan = planDownload(status, earlier.have, response.headers);
    if (plan.action === 'error') throw await this.refusal(response, url);
    if (plan.action === 'complete') return completeAlready(response, url, earlier, contentType);
    if (plan.action === 'restart') {
      stream.destroy();
      await rm(part, { force: true });
      throw new ApiError('protocol', `download of ${redact(url)}: ${plan.why}; it will start over`, status);
    }
    const { append, expected } = plan;
    const { onProgress } = options;
    const body = { url, part, status, stream, contentType, earlier, append, expected, maxBytes, onProgress };
    if (maxBytes !== null && expected !== null && expected > maxBytes) {
      stream.destroy();
      await rm(part, { force: true });
      throw tooBig(body, true);
    }
    return writePart(body, this.files, this.limits, this.cap);
  }

  /** Storage's refusal, from its answer's (capped, scrubbed) body. */
  private async refusal(response: Opened, url: string): Promise<ApiError> {
    const { body } = await readCapped(response.body, this.limits.maxErrorBodyBytes, url).catch(() => ({
      body: Buffer.alloc(0),
    }));
    return errorFromResponse(response.status, utf8(body), url, this.secrets());
  }
}

/**
 * The part a transfer resumes: only when it is Dubdesk's own (someone may have planted a link there). What
 * it keeps is hashed before the request, so the rest is hashed as it arrives.
 */
async function earlierPart(part: string, fresh: boolean, signal?: AbortSignal): Promise<EarlierPart> {
  const earlier = fresh ? null : await entryAt(part);
  if (earlier && !mayBeOwn(earlier)) throw new NameTakenError(part, 'not the part file Dubdesk left');
  const have = earlier?.size ?? 0;
  const identity = earlier ? identityOf(earlier) : undefined;
  const kept = have > 0 ? await hashOf(part, have, identity, signal) : null;
  return { have, identity, kept };
}

function contentTypeOf(headers: IncomingHttpHeaders): string | null {
  const type = headers['content-type'];
  return (Array.isArray(type) ? type[0] : type)?.split(';')[0]?.trim() || null;
}

/** A redirect the transport did not follow: to a scheme that is not http(s), or without a Location. */
function notFollowed(response: Opened): ApiError {
  response.body.destroy();
  const { status } = response;
  const to = redirectTarget(response.headers.location, response.url.href);
  if (to && !isHttp(to))
    return new ApiError(
      'bad-link',
      `the output link redirected to a ${to.protocol} link; Dubdesk does not follow it`,
      status,
    );
  return new ApiError(
    'protocol',
    `HTTP ${status} from ${redact(response.url.href)} without a usable Location`,
    status,
  );
}

/** The server says the part holds the whole file already. */
function completeAlready(
  response: Opened,
  url: string,
  earlier: EarlierPart,
  contentType: string | null,
): Downloaded {
  response.body.destroy();
  // Only a part with bytes in it can be complete (`planDownload`).
  if (!earlier.identity) throw new ApiError('protocol', `${redact(url)} said an empty download was complete`);
  return {
    bytes: earlier.have,
    contentType,
    head: null,
    sha256: (earlier.kept ?? createHash('sha256')).digest('hex'),
    identity: earlier.identity,
  };
}

/** A hash of the first `bytes` of Dubdesk's own `path`, to be continued with what follows them. */
async function hashOf(
  path: string,
  bytes: number,
  expected: FileIdentity | undefined,
  signal?: AbortSignal,
): Promise<Hash> {
  const hash = createHash('sha256');
  const { fh } = await openOwnFile(path, 'read', expected);
  const stream = fh.createReadStream({ start: 0, end: bytes - 1, highWaterMark: 1024 * 1024, signal });
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash;
}
