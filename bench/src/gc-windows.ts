/**
 * bench:server --gc: where the slow acks fall against the server's old-generation collections, and
 * what the young generation handed the old one. The server runs with --trace-gc-nvp; each
 * mark-compact line gives its end (ms since the server's start), how long marking ran before it and
 * the main thread's share of that work; each scavenge line what it promoted. An ack is "in a
 * collection" when its round trip overlapped the marking's start to the compaction's end, and "in its
 * wake" when it overlapped that span or the DRAIN_MS after it: the steps held up meanwhile are
 * answered late.
 */

/** After a collection, how long the server is taken to need to catch up with the steps it held up. */
export const DRAIN_MS = 500;

/** A span of time on the load process's clock (performance.now()). */
export interface Span {
  readonly from: number;
  readonly to: number;
}

/** A mark-compact's span, marking to end. */
export interface Collection extends Span {
  /** The main thread's part: its incremental marking steps and the final pause, ms. */
  readonly mainThreadMs: number;
}

/** One collection's line of a --trace-gc-nvp log. */
export interface TraceLine {
  /** The line's time on the load process's clock (the collection's end). */
  readonly at: number;
  readonly kind: string;
  field(name: string): number;
}

const LINE = /\s(\d+) ms: .*\bgc=(\w+)/;

/** The collections' lines of a --trace-gc-nvp log; `spawnedAt`: when the server started, on this clock. */
export function traceLines(trace: string, spawnedAt: number): TraceLine[] {
  const lines: TraceLine[] = [];
  for (const text of trace.split('\n')) {
    const match = LINE.exec(text);
    if (!match) continue;
    lines.push({
      at: spawnedAt + Number(match[1]),
      kind: match[2] as string,
      field: (name) => Number(new RegExp(`\\s${name.replaceAll('.', '\\.')}=([\\d.]+)`).exec(text)?.[1] ?? 0),
    });
  }
  return lines;
}

/** The mark-compacts among a log's lines. */
export function markCompacts(lines: readonly TraceLine[]): Collection[] {
  return lines
    .filter((line) => line.kind === 'mc')
    .map((line) => {
      const pause = line.field('pause');
      return {
        from: line.at - line.field('incremental_walltime_duration') - pause,
        to: line.at,
        mainThreadMs: line.field('incremental') + pause,
      };
    });
}

/** The scavenges that ended in the window: how many, their pauses, and what they promoted. */
export interface Scavenges {
  readonly count: number;
  readonly pauseMs: number;
  readonly promotedBytes: number;
}

export function scavenges(lines: readonly TraceLine[], window: Span): Scavenges {
  let count = 0;
  let pauseMs = 0;
  let promotedBytes = 0;
  for (const line of lines) {
    if (line.kind !== 's' || line.at < window.from || line.at > window.to) continue;
    count += 1;
    pauseMs += line.field('pause');
    promotedBytes += line.field('promoted');
  }
  return { count, pauseMs, promotedBytes };
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
  collections: readonly Span[],
  window: Span,
  overMs: number,
): AcksInCollections {
  const inside = collections.filter((c) => c.to > window.from && c.from < window.to);
  const slow = acks.filter(([, ms]) => ms > overMs);
  const other = acks.filter(([, ms]) => ms <= overMs);
  const shares = (spans: readonly Span[]) => {
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

/** --gc's figures for a window: the acks against the mark-compacts, and the collector's own work. */
export interface GcFigures extends AcksInCollections {
  /** The main thread's work in the mark-compacts that ended in the window, ms. */
  readonly markCompactMainThreadMs: number;
  readonly scavenges: number;
  readonly scavengePauseMs: number;
  /** What the scavenges promoted to the old generation, per second of the window and per play. */
  readonly promotedMBPerSecond: number;
  readonly promotedKBPerPlay: number;
}

/** `plays`: the plays acknowledged in the window. */
export function gcFigures(
  trace: string,
  spawnedAt: number,
  acks: readonly (readonly [number, number])[],
  window: { readonly from: number; readonly to: number },
  overMs: number,
  plays: number,
): GcFigures {
  const lines = traceLines(trace, spawnedAt);
  const collections = markCompacts(lines);
  const young = scavenges(lines, window);
  const ended = collections.filter((c) => c.to >= window.from && c.to <= window.to);
  const round = (value: number) => Math.round(value * 100) / 100;
  return {
    ...acksInCollections(acks, collections, window, overMs),
    markCompactMainThreadMs: round(ended.reduce((sum, c) => sum + c.mainThreadMs, 0)),
    scavenges: young.count,
    scavengePauseMs: round(young.pauseMs),
    promotedMBPerSecond: round(young.promotedBytes / 1e6 / ((window.to - window.from) / 1000)),
    promotedKBPerPlay: plays === 0 ? 0 : round(young.promotedBytes / 1024 / plays),
  };
}
