/**
 * `fn` over every item, up to `limit` calls at once, the answers in the order of the items. Reading many
 * small files is a few short trips to the thread pool each: one file at a time leaves the pool (and the
 * disk) waiting on the main thread. The first failure rejects, and no item starts after it.
 */
export async function mapInTurns<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (next < items.length && !failed) {
      const i = next++;
      try {
        out[i] = await fn(items[i] as T);
      } catch (e) {
        failed = true;
        throw e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
