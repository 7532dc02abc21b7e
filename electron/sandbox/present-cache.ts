import { dubV2, type LinkMaker, type Stamp } from './present';
import type { SandboxDub } from './state';

/** Cached links are re-signed at most this old, so with the default hour they keep ~98% of their life. */
const MAX_RESIGN_AFTER_MS = 60_000;

interface Entry {
  version: number;
  style: string;
  signedAt: number;
  json: string;
}

/**
 * Each dub's v2 JSON, kept until the dub changes or its links pass a tenth of their lifetime (a minute at
 * most): a 100-dub list page is a join of ready strings, not 100 presentations and 1,800 HMACs, and a
 * fresh answer never carries links that are about to expire, however short `linkTtlSeconds` is.
 */
export class PresentCache {
  private readonly entries = new Map<string, Entry>();
  private readonly resignAfterMs: number;

  constructor(
    private readonly now: () => number,
    private readonly links: LinkMaker,
    linkTtlSeconds: number,
    /** How `created_at` is written now, and its name (a change of style makes every entry stale). */
    private readonly stamp: { style: () => string; write: Stamp },
  ) {
    this.resignAfterMs = Math.min(MAX_RESIGN_AFTER_MS, (linkTtlSeconds * 1000) / 10);
  }

  dubV2Json(dub: SandboxDub): string {
    const now = this.now();
    const hit = this.entries.get(dub.id);
    const style = this.stamp.style();
    if (
      hit &&
      hit.version === dub.version &&
      hit.style === style &&
      now >= hit.signedAt &&
      now - hit.signedAt < this.resignAfterMs
    ) {
      return hit.json;
    }
    const json = JSON.stringify(dubV2(dub, this.links, this.stamp.write));
    this.entries.set(dub.id, { version: dub.version, style, signedAt: now, json });
    return json;
  }
}
