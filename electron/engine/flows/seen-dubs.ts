import type { DubV2 } from '../../../shared/api/v2';

/** Links a list page handed out stay good for about an hour; these are used only while much fresher. */
const FRESH_MS = 5 * 60_000;

/**
 * Completed v2 dubs as the last poll saw them, with their signed output links: the download step starts
 * from these instead of asking for the same dub again (one request less per job). In memory only, never
 * in the database (links are credentials of a kind); an expired one is refreshed by the download step.
 */
export class SeenDubs {
  private readonly dubs = new Map<string, { dub: DubV2; at: number }>();

  remember(dub: DubV2, now = Date.now()): void {
    this.dubs.set(dub.id, { dub, at: now });
  }

  /** The dub as a recent poll saw it, once: a retry of the step asks the service again. */
  take(id: string, now = Date.now()): DubV2 | null {
    const seen = this.dubs.get(id);
    this.dubs.delete(id);
    return seen && now - seen.at < FRESH_MS ? seen.dub : null;
  }

  /** Drops what nobody came for (canceled jobs, other services). */
  prune(now = Date.now()): void {
    for (const [id, s] of this.dubs) if (now - s.at >= FRESH_MS) this.dubs.delete(id);
  }
}
