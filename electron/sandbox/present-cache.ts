import { dubV2, type LinkMaker } from './present';
import type { SandboxDub } from './state';

/** Cached links are re-signed once they are this old, so they still expire about an hour after any answer. */
const RESIGN_AFTER_MS = 60_000;

interface Entry {
  version: number;
  signedAt: number;
  json: string;
}

/**
 * Each dub's v2 JSON, kept until the dub changes or its links pass a minute of age: a 100-dub list page
 * is a join of ready strings, not 100 presentations and 1,800 HMACs.
 */
export class PresentCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly now: () => number,
    private readonly links: LinkMaker,
  ) {}

  dubV2Json(dub: SandboxDub): string {
    const now = this.now();
    const hit = this.entries.get(dub.id);
    if (hit && hit.version === dub.version && now >= hit.signedAt && now - hit.signedAt < RESIGN_AFTER_MS) {
      return hit.json;
    }
    const json = JSON.stringify(dubV2(dub, this.links));
    this.entries.set(dub.id, { version: dub.version, signedAt: now, json });
    return json;
  }
}
