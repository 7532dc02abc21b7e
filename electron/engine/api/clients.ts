import type { SourceReads } from './body-stream';
import { Downloads, type PartFiles } from './download';
import { LangsClient } from './langs';
import { LegacyClient } from './legacy';
import { LANGS_LIMITS, withLimits, type HttpLimits } from './limits';
import { uncapped, type TransferCaps } from './rate-cap';
import type { Secrets } from './scrub';
import { Uploads } from './upload';
import { V1Client } from './v1';
import { V2Client } from './v2';

export interface ServiceOptions {
  baseUrl: string;
  /** Root of the legacy interface; without it there is no legacy client. */
  legacyUrl: string | null;
  apiKey: string;
  /** Overrides of the defaults (tests inject short ones). */
  limits?: Partial<HttpLimits>;
  /** Where downloads write (tests give a disk that fills up). */
  partFiles?: PartFiles;
  /** How files going out are read (tests give reads that hang, as a share asleep does). */
  sourceReads?: SourceReads;
  /** Every other key Dubdesk knows (stored, or given for the session): scrubbed from answers with `apiKey`. */
  secrets?: Secrets;
  /** The engine's caps on uploads and downloads (one uplink, one downlink: shared by every client). */
  caps?: TransferCaps;
}

export interface ServiceClients {
  v2: V2Client;
  v1: V1Client;
  legacy: LegacyClient | null;
  langs: LangsClient;
  /** Output links: no key, redirects followed. */
  downloads: Downloads;
  /** Pre-signed PUTs (v1 and legacy use it): no key, no redirects. */
  uploads: Uploads;
}

/** Every client of the service, sharing one set of limits; the only place the engine builds them. */
export function createServiceClients(o: ServiceOptions): ServiceClients {
  const limits = withLimits(o.limits);
  const secrets: Secrets = () => [o.apiKey, ...(o.secrets?.() ?? [])];
  const caps = o.caps ?? uncapped();
  const uploads = new Uploads(limits, o.sourceReads, secrets, caps.upload);
  // The language list keeps its own short limits unless the caller's are shorter still.
  const langsLimits = Object.fromEntries(
    Object.entries(LANGS_LIMITS).map(([k, v]) => [k, Math.min(v, limits[k as keyof HttpLimits])]),
  );
  return {
    v2: new V2Client(o.baseUrl, o.apiKey, { limits, reads: o.sourceReads, secrets, uploadCap: caps.upload }),
    v1: new V1Client(o.baseUrl, o.apiKey, { limits, uploads, secrets }),
    legacy: o.legacyUrl ? new LegacyClient(o.legacyUrl, o.apiKey, { limits, uploads, secrets }) : null,
    langs: new LangsClient(o.baseUrl, { ...limits, ...langsLimits }, secrets),
    downloads: new Downloads(limits, o.partFiles, secrets, caps.download),
    uploads,
  };
}
