import { describe, expect, it } from 'vitest';
import { DRAIN_MS, acksInCollections, markCompacts } from '../src/gc-windows.ts';

const TRACE = [
  '[1:0x1]     1200 ms: Scavenge 97.4 (131.9) -> 87.0 (131.9) MB, pooled: 31 MB, 12.30 / 0.00 ms  (average mu = 0.935, current mu = 0.829) allocation failure; ',
  '[1:0x1]     2000 ms: Mark-Compact 90.6 (123.4) -> 67.0 (122.9) MB, pooled: 0 MB, 7.94 / 0.03 ms  (+ 48.4 ms in 174 steps since start of marking, biggest step 16.6 ms, walltime since start of marking 88 ms) (average mu = 0.979, current mu = 0.973) finalize incremental marking via task; GC in old space requested',
  '[1:0x1]     5000 ms: Mark-Compact 81.6 (179.4) -> 77.0 (133.4) MB, pooled: 47 MB, 97.37 / 0.00 ms  (average mu = 0.967, current mu = 0.225) testing; GC in old space requested',
].join('\n');

describe('slow acks against the mark-compacts of a --trace-gc log', () => {
  it('reads each mark-compact as its marking start to its end, on the load clock', () => {
    expect(markCompacts(TRACE, 100)).toEqual([
      { from: 2100 - 88, to: 2100 },
      { from: 5100, to: 5100 },
    ]);
  });

  it('counts the slow acks whose round trip overlapped a collection or its wake, and the others as the baseline', () => {
    expect(DRAIN_MS).toBe(500);
    const collections = [{ from: 2000, to: 2100 }];
    const acks: [number, number][] = [
      [1990, 80], // slow, overlaps
      [2050, 60], // slow, overlaps
      [2400, 90], // slow, in the wake only
      [3000, 70], // slow, clear of both
      [1000, 2], // fast, clear
      [2099, 1], // fast, overlaps
      [2500, 2], // fast, in the wake only
    ];
    expect(acksInCollections(acks, collections, { from: 0, to: 4000 }, 50)).toEqual({
      slow: 4,
      slowShare: 2 / 4,
      otherShare: 1 / 3,
      collections: 1,
      timeShare: 100 / 4000,
      wake: { slowShare: 3 / 4, otherShare: 2 / 3, timeShare: 600 / 4000 },
    });
  });

  it('counts time covered by overlapping wakes once, and a wake reaching into the window', () => {
    const collections = [
      { from: -700, to: -200 }, // ended before the window; its wake reaches 300 ms into it
      { from: 2000, to: 2100 },
      { from: 2300, to: 2400 }, // its wake overlaps the one before
    ];
    const figures = acksInCollections([[100, 60]], collections, { from: 0, to: 4000 }, 50);
    expect(figures.collections).toBe(2);
    expect(figures.timeShare).toBe(200 / 4000);
    expect(figures.slowShare).toBe(0);
    expect(figures.wake).toEqual({ slowShare: 1, otherShare: 0, timeShare: (300 + 900) / 4000 });
  });
});
