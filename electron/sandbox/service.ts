import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { AUTO, LEGACY_CODES, TARGET_CODES } from '../../shared/languages';
import type { Faults } from './faults';
import { HttpError } from './http-error';
import type { Ctx } from './http';
import type { Pipeline } from './pipeline';
import { LinkShaper, MIB } from './link-rate';
import { PresentCache } from './present-cache';
import type { LinkMaker } from './present';
import type { SandboxOptions } from './options';
import { stampOf } from './stamps';
import type { UrlSigner } from './signing';
import type { SourcePolicy } from './source-url';
import type { SandboxAccount, SandboxDub, SandboxState } from './state';

/** What every route handler shares: state, pipeline, faults, signing, and the auth rules per generation. */
export class SandboxService {
  /** The sandbox's own base URL, known once it listens: the root of every link it hands out. */
  origin = '';

  constructor(
    readonly options: SandboxOptions,
    readonly state: SandboxState,
    readonly pipeline: Pipeline,
    readonly faults: Faults,
    readonly signer: UrlSigner,
    readonly dataDir: string,
    readonly sourcePolicy: SourcePolicy,
  ) {
    this.presented = new PresentCache(() => state.now(), this.link, options.linkTtlSeconds, {
      style: () => faults.get().timestamps,
      write: this.stamp,
    });
    this.uplink = options.linkRateMiBps ? new LinkShaper(options.linkRateMiBps * MIB) : null;
    this.downlink = options.downlinkRateMiBps ? new LinkShaper(options.downlinkRateMiBps * MIB) : null;
  }

  /** A `created_at` as the service writes it now (the `timestamps` fault). */
  readonly stamp = (at: Date): string => stampOf(at, this.faults.get().timestamps);

  /** A dub's name as the service stores it (the `normalizeNames` fault). */
  storedName(name: string): string {
    const form = this.faults.get().normalizeNames;
    return form === 'none' ? name : name.normalize(form);
  }

  /**
   * Before the answer of a call that committed a dub to a charge: saved first, then held while the
   * `holdCreates` fault says so (the caller may give up meanwhile; the dub stays made).
   */
  async heldAnswer(ctx: Pick<Ctx, 'durable'>): Promise<void> {
    await ctx.durable();
    await this.faults.hold('creates');
  }

  uploadPath(name: string): string {
    return join(this.dataDir, 'uploads', name);
  }

  /** v2: `apikey` or `Authorization: Bearer`. v1: `apikey` only. Legacy: `ApiKey` (same header, any case). */
  authenticate(req: IncomingMessage, generation: 'v2' | 'v1' | 'legacy'): SandboxAccount {
    const header = req.headers['apikey'];
    let key = Array.isArray(header) ? header[0] : header;
    if (!key && generation === 'v2') {
      const m = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
      key = m?.[1]?.trim();
    }
    const account = this.state.accountByKey(key);
    if (!account) throw new HttpError(401, key ? 'Invalid API key' : 'Missing API key');
    return account;
  }

  checkLanguages(sourceLang: string, destLang: string, legacy: boolean): void {
    const allowed = legacy ? LEGACY_CODES : TARGET_CODES;
    if (destLang === AUTO)
      throw new HttpError(400, "Invalid dest_lang 'auto': auto is only valid as a source language");
    if (!allowed.includes(destLang)) throw new HttpError(400, `Unsupported dest_lang '${destLang}'`);
    if (sourceLang !== AUTO && !allowed.includes(sourceLang))
      throw new HttpError(400, `Unsupported source_lang '${sourceLang}'`);
  }

  requireBalance(account: SandboxAccount): void {
    if (account.seconds <= 0) throw new HttpError(402, 'Insufficient credit balance');
  }

  uploadUrl(dub: SandboxDub): string {
    return this.signer
      .sign('PUT', new URL(`/storage/uploads/${dub.id}`, this.origin), this.options.uploadTtlSeconds)
      .toString();
  }

  /** The signed `{ url, download_url }` pair of one output, rooted at the sandbox's own base URL. */
  readonly link: LinkMaker = (dub, type) => {
    const artifact = dub.artifacts?.[type];
    const path = `/storage/outputs/${dub.id}/${type}/${encodeURIComponent(artifact?.fileName ?? type)}`;
    const make = (disposition: string) =>
      this.signer
        .sign('GET', new URL(path, this.origin), this.options.linkTtlSeconds, {
          'response-content-disposition': disposition,
        })
        .toString();
    return { url: make('inline'), download_url: make('attachment') };
  };

  readonly presented: PresentCache;
  /** The shaped receiving side of uploads (`linkRateMiBps`), or null for the full speed of the machine. */
  readonly uplink: LinkShaper | null;
  /** The shaped sending side of downloads (`downlinkRateMiBps`), or null for the full speed of the machine. */
  readonly downlink: LinkShaper | null;

  /** Start-dub for v1 and legacy: the preconditions in the order the spec lists them. */
  startDub(account: SandboxAccount, id: string, generation: 'v1' | 'legacy'): SandboxDub {
    const dub = this.state.dubs.get(id);
    const sameFamily =
      dub && (generation === 'legacy' ? dub.generation === 'legacy' : dub.generation !== 'legacy');
    if (!dub || !sameFamily) throw new HttpError(404, `File ${id} not found`);
    if (dub.ownerId !== account.id) throw new HttpError(403, `File ${id} belongs to another user`);
    if (dub.queuedAt !== null || dub.frozen)
      throw new HttpError(409, `Dub ${id} is already in progress or completed`);
    if (!dub.uploaded) throw new HttpError(412, `File ${id} has not been uploaded yet`);
    this.requireBalance(account);
    this.pipeline.enqueue(dub);
    return dub;
  }
}
