/** Many requests at once, a few at a time: the floods of the abuse tests. */
/** Runs `task` for each item with at most `width` in flight; answers in order. */
export async function pooled<T, R>(items: readonly T[], width: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await task(items[index] as T);
      }
    }),
  );
  return results;
}

/** 0, 1, …, n - 1. */
export const range = (n: number) => Array.from({ length: n }, (_, i) => i);
