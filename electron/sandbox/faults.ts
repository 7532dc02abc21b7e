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

/** The faults drawn at a rate; the other settings (latency, the clock, names, held answers) always apply. */
export type FaultKind = {
  [K in keyof FaultSettings]: K extends `rate${string}` ? K : never;
}[keyof FaultSettings];

/** The answers a test can hold: of the calls that commit a dub to a charge, and of the v2 lists of dubs. */
type Held = 'creates' | 'lists';
const HELD_KINDS: readonly Held[] = ['creates', 'lists'];
const HOLD_SETTING = { creates: 'holdCreates', lists: 'holdLists' } as const;

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
  /** Answers held by `holdCreates` and `holdLists`, each released when its setting goes back to false. */
  private readonly holding: Record<Held, (() => void)[]> = { creates: [], lists: [] };
  /** How many answers of each kind were ever held (the fault really happened), and how many are held now. */
  readonly held: Record<Held, { total: number; now: number }> = {
    creates: { total: 0, now: 0 },
    lists: { total: 0, now: 0 },
  };
  /** Told whenever the settings change (the clock follows `clockSkewSeconds`). */
  onChange: (settings: FaultSettings) => void = () => {};

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
    if (!this.settings.holdCreates) this.releaseHeld('creates');
    if (!this.settings.holdLists) this.releaseHeld('lists');
    this.onChange(this.get());
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

  /** Resolves at once, or (with `holdCreates` or `holdLists`, as `kind` says) once the answer is released. */
  hold(kind: Held): Promise<void> {
    if (!this.settings[HOLD_SETTING[kind]]) return Promise.resolve();
    const count = this.held[kind];
    count.total++;
    count.now++;
    return new Promise((resolve) =>
      this.holding[kind].push(() => {
        count.now--;
        resolve();
      }),
    );
  }

  /** Lets the held answers of `kind` go, or every held answer (at stop, so the server can close). */
  releaseHeld(kind?: Held): void {
    for (const k of kind ? [kind] : HELD_KINDS) for (const release of this.holding[k].splice(0)) release();
  }

  get listFault(): FaultSettings['listFault'] {
    return this.settings.listFault;
  }

  /** How a dub into `lang` is to come out bad (none: a good dub). */
  badDubsFor(lang: string): BadDub[] {
    return [...(this.settings.badDubs[lang.toLowerCase()] ?? [])];
  }
}
