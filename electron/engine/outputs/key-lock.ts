/**
 * One holder at a time per key, in this process (one runner works a home: see runner/lock). The languages of
 * one source fetch the outputs they share (the original, its subtitles, the poster) one after the other, so
 * the second finds the first's file instead of racing it to the same name.
 */
export class KeyLock {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = before.then(() => mine);
    this.tails.set(key, tail);
    await before;
    try {
      return await work();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
