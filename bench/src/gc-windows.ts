/**
 * bench:server --gc: where the slow acks fall against the server's old-generation collections. The
 * server runs with --trace-gc; each mark-compact line gives its end (ms since the server's start)
 * and, when it was incremental, how long marking ran before it. An ack is "in a collection" when it
 * started from the marking's start to the compaction's end.
 */

/** A mark-compact's span on the load process's clock (performance.now()). */
export interface Collection {
  readonly from: number;
  readonly to: number;
}

const MARK_COMPACT = /\s(\d+) ms: Mark-Compact /;
const MARKING = /walltime since start of marking (\d+) ms/;

/** The mark-compacts in a --trace-gc log; `spawnedAt`: when the server started, on this clock. */
export function markCompacts(traceGc: string, spawnedAt: number): Collection[] {
  const collections: Collection[] = [];
  for (const line of traceGc.split('\n')) {
    const match = MARK_COMPACT.exec(line);
    if (!match) continue;
    const to = spawnedAt + Number(match[1]);
    collections.push({ from: to - Number(MARKING.exec(line)?.[1] ?? 0), to });
  }
  return collections;
}

export interface AcksInCollections {
  /** Acks slower than the bound, and the share of them whose round trip overlapped a collection. */
  readonly slow: number;
  readonly slowShare: number;
  /** The same share for the other acks: what the share above would be if collections did not matter. */
  readonly otherShare: number;
  /** Collections in the window, and the share of its time they covered. */
  readonly collections: number;
  readonly timeShare: number;
}

/** `acks`: [started at (performance.now()), round trip ms], in the window [from, to]. */
export function acksInCollections(
  acks: readonly (readonly [number, number])[],
  collections: readonly Collection[],
  window: { readonly from: number; readonly to: number },
  overMs: number,
): AcksInCollections {
  const inside = collections.filter((c) => c.to > window.from && c.from < window.to);
  const overlaps = ([at, ms]: readonly [number, number]) => inside.some((c) => at <= c.to && at + ms >= c.from);
  const share = (list: readonly (readonly [number, number])[]) =>
    list.length === 0 ? 0 : list.filter(overlaps).length / list.length;
  const slow = acks.filter(([, ms]) => ms > overMs);
  const other = acks.filter(([, ms]) => ms <= overMs);
  const covered = inside.reduce((sum, c) => sum + Math.min(c.to, window.to) - Math.max(c.from, window.from), 0);
  return {
    slow: slow.length,
    slowShare: share(slow),
    otherShare: share(other),
    collections: inside.length,
    timeShare: covered / (window.to - window.from),
  };
}
