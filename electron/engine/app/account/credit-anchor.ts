import { z } from 'zod';
import type { ChargeLedger } from '../../db/charge-ledger';
import type { JobStore } from '../../db/jobs';

const KEY = 'credits.anchor';

/**
 * The last balance read, and what the queue knew when it was sent: the ledger of recorded charges, and the
 * part of the balance's fall that no recorded charge explains (dubs the service charged before Dubdesk saw
 * them complete, e.g. while nothing ran). Kept in the database, so a restart reconciles against it.
 */
const Anchor = z.object({
  service: z.string(),
  account: z.string(),
  balance: z.number(),
  ledger: z.number(),
  unrecorded: z.number(),
  sentAt: z.number(),
});
type Anchor = z.infer<typeof Anchor>;

/** What the queue knew as a balance read was sent. */
export interface ReadSent {
  service: string;
  ledger: number;
  /** Estimates of the dubs the service held, not yet charged: the most the read can hold unrecorded. */
  atService: number;
  sentAt: number;
}

/**
 * "Committed" beside the balance shown, so that each charge is counted exactly once: in the balance the
 * service told, or in committed, never in both and never in neither.
 * - A charge recorded after the balance was asked is not in it yet: it stays in committed (as its real
 *   amount) until the next read, which its recording asks for at once.
 * - A read whose fall is more than the charges recorded since the last one holds charges Dubdesk has not
 *   seen yet (the service charged while nothing ran): as much is taken off committed, at most what the dubs
 *   at the service were estimated at. Topped up meanwhile, the fall is smaller and nothing is taken off.
 * Only the account's own spending elsewhere (another app on the same account) can still be taken for the
 * queue's, for as long as the queue has dubs at the service.
 */
export class CreditAnchor {
  private readonly ledger: ChargeLedger;
  private anchor: Anchor | null = null;

  constructor(private readonly store: Pick<JobStore, 'ledger' | 'settings'>) {
    this.ledger = store.ledger;
  }

  sending(service: string): ReadSent {
    return {
      service,
      ledger: this.ledger.charged(service),
      atService: this.ledger.atService(service),
      sentAt: Date.now(),
    };
  }

  /** The service answered `balance` for `account` to the read `sent`. False: an older read, ignored. */
  heard(sent: ReadSent, account: string, balance: number): boolean {
    const stored = this.stored();
    const prev = this.anchor ?? stored;
    const same = prev !== null && prev.service === sent.service && prev.account === account;
    if (same && prev.sentAt > sent.sentAt) return false;
    const fall = same ? prev.balance - balance - (sent.ledger - prev.ledger) + prev.unrecorded : 0;
    const unrecorded = Math.min(Math.max(0, fall), sent.atService);
    this.anchor = {
      service: sent.service,
      account,
      balance,
      ledger: sent.ledger,
      unrecorded,
      sentAt: sent.sentAt,
    };
    // Kept for a restart while the service holds dubs it may charge unseen (and as the first base). With
    // none there, any earlier read is as good a base (the sums carry on from it): an idle engine's reads
    // write nothing.
    const ownBase = stored?.service === sent.service && stored.account === account;
    if (sent.atService > 0 || !ownBase) this.store.settings.set(KEY, JSON.stringify(this.anchor));
    return true;
  }

  /** Committed as shown beside the balance last heard, from the live list's sum of estimates. */
  committed(service: string, live: number): number {
    const a = this.anchor?.service === service ? this.anchor : null;
    const uncounted = this.ledger.canceledAtService(service);
    if (!a) return live + uncounted;
    const notInBalance = Math.max(0, this.ledger.charged(service) - a.ledger);
    return Math.max(0, live + uncounted + notInBalance - a.unrecorded);
  }

  /** Another service or key: the last read says nothing about the next. */
  forget(): void {
    this.anchor = null;
    this.store.settings.set(KEY, null);
  }

  private stored(): Anchor | null {
    try {
      const parsed = Anchor.safeParse(JSON.parse(this.store.settings.get(KEY) ?? 'null'));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }
}
