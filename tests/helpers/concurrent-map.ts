/**
 * `fn` over `items`, at most `size` at a time, results in the items' order. For tests that run a
 * probe per case against the real loader: a few at once, not hundreds of processes.
 */
export async function mapConcurrently<T, R>(items: readonly T[], size: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
  return out;
}
