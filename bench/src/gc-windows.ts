/**
 * bench:server --gc: where the slow acks fall against the server's old-generation collections. The
 * server runs with --trace-gc; each mark-compact line gives its end (ms since the server's start)
 * and, when it was incremental, how long marking ran before it. An ack is "in a collection" when its
 * round trip overlapped the marking's start to the compaction's end, and "in its wake" when it
 * overlapped that span or the DRAIN_MS after it: the steps held up meanwhile are answered late.
 */

/** After a collection, how long the server is taken to need to catch up with the steps it held up. */
export const DRAIN_MS = 500;

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
  /** The same three shares for the collections with their wakes (DRAIN_MS after each). */
  readonly wake: { readonly slowShare: number; readonly otherShare: number; readonly timeShare: number };
}

/** `acks`: [started at (performance.now()), round trip ms], in the window [from, to]. */
export function acksInCollections(
  acks: readonly (readonly [number, number])[],
  collections: readonly Collection[],
  window: { readonly from: number; readonly to: number },
  overMs: number,
): AcksInCollections {
  const inside = collections.filter((c) => c.to > window.from && c.from < window.to);
  const slow = acks.filter(([, ms]) => ms > overMs);
  const other = acks.filter(([, ms]) => ms <= overMs);
  const shares = (spans: readonly Collection[]) => {
    const overlaps = ([at, ms]: readonly [number, number]) => spans.some((c) => at <= c.to && at + ms >= c.from);
    const share = (list: readonly (readonly [number, number])[]) =>
      list.length === 0 ? 0 : list.filter(overlaps).length / list.length;
    // Spans that run into each other are counted once.
    let covered = 0;
    let end = window.from;
    for (const c of [...spans].sort((a, b) => a.from - b.from)) {
      const from = Math.max(c.from, end);
      const to = Math.min(c.to, window.to);
      if (to > from) covered += to - from;
      end = Math.max(end, to);
    }
    return { slowShare: share(slow), otherShare: share(other), timeShare: covered / (window.to - window.from) };
  };
  return {
    slow: slow.length,
    ...shares(inside),
    collections: inside.length,
    wake: shares(
      collections
        .map((c) => ({ from: c.from, to: c.to + DRAIN_MS }))
        .filter((c) => c.to > window.from && c.from < window.to),
    ),
  };
}
