import { FaultSettings, NO_FAULTS, type BadDub, type FaultPatch } from './options';

/** mulberry32: tiny, fast and seedable, so a failing run can be replayed with the same --seed. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type FaultKind = Exclude<keyof FaultSettings, 'latencyMs' | 'listFault' | 'badDubs'>;

export class Faults {
  private settings: FaultSettings;
  private readonly random: () => number;
  /** How many times each fault fired: tests use it to prove the faults really happened. */
  readonly fired: Record<FaultKind, number> = {
    rate502: 0,
    rateReset: 0,
    rateLostResponse: 0,
    rateDubFailure: 0,
    rateTruncate: 0,
    rateExpireLink: 0,
    rateRefuseSourceUrl: 0,
    rateQuoteKey: 0,
  };

  constructor(initial: FaultPatch, seed: number) {
    this.settings = FaultSettings.parse({ ...NO_FAULTS, ...initial });
    this.random = mulberry32(seed);
  }

  get(): FaultSettings {
    return { ...this.settings };
  }

  /** Changes the faults `patch` names, and only those. */
  set(patch: FaultPatch): FaultSettings {
    this.settings = FaultSettings.parse({ ...this.settings, ...patch });
    return this.get();
  }

  /** Draws once for this fault; true means inject it now. */
  roll(kind: FaultKind): boolean {
    const rate = this.settings[kind];
    if (rate <= 0) return false;
    const hit = this.random() < rate;
    if (hit) this.fired[kind] += 1;
    return hit;
  }

  get latencyMs(): number {
    return this.settings.latencyMs;
  }

  get listFault(): FaultSettings['listFault'] {
    return this.settings.listFault;
  }

  /** How a dub into `lang` is to come out bad (none: a good dub). */
  badDubsFor(lang: string): BadDub[] {
    return [...(this.settings.badDubs[lang.toLowerCase()] ?? [])];
  }
}
