import { describe, expect, it } from 'vitest';
import { DRAIN_MS, acksInCollections, gcFigures, markCompacts, scavenges, traceLines } from '../src/gc-windows.ts';

/** --trace-gc-nvp lines (shortened: the fields these figures read, among others). */
const TRACE = [
  '[1:0x1:0]     1200 ms: pause=12.3 mutator=400.1 gc=s reduce_memory=0 scavenge=12.1 scavenge.parallel=11.0 allocated=25000000 promoted=2000000 new_space_survived=2400000',
  '[1:0x1:0]     1500 ms: pause=8.5 mutator=290.0 gc=s reduce_memory=0 scavenge=8.4 allocated=25000000 promoted=1500000 new_space_survived=2100000',
  '[1:0x1:0]     2000 ms: pause=7.9 mutator=152.1 gc=mc reduce_memory=0 evacuate=6.1 incremental=48.4 incremental.sweeping=0.0 incremental_longest_step=2.6 incremental_steps_count=174 incremental_walltime_duration=88 background.mark=80.3 start_object_size=90000000',
  '[1:0x1:0]     5000 ms: pause=97.4 mutator=10.0 gc=mc reduce_memory=1 evacuate=20.0 incremental=0.0 incremental_walltime_duration=0 background.mark=40.0',
  '[1:0x1:0]     5200 ms: pause=5.0 mutator=190.0 gc=s reduce_memory=0 allocated=25000000 promoted=0 new_space_survived=3000000',
].join('\n');

describe('slow acks against the mark-compacts of a --trace-gc-nvp log', () => {
  it('reads each mark-compact as its marking start to its end, on the load clock, with its main-thread work', () => {
    expect(markCompacts(traceLines(TRACE, 100))).toEqual([
      { from: 2100 - 88 - 7.9, to: 2100, mainThreadMs: 48.4 + 7.9 },
      { from: 5100 - 97.4, to: 5100, mainThreadMs: 97.4 },
    ]);
  });

  it('sums the scavenges that ended in the window: their pauses and what they promoted', () => {
    const both = scavenges(traceLines(TRACE, 100), { from: 1250, to: 5299 });
    expect(both).toMatchObject({ count: 2, promotedBytes: 3_500_000 });
    expect(both.pauseMs).toBeCloseTo(20.8, 9);
    expect(scavenges(traceLines(TRACE, 100), { from: 1301, to: 5300 })).toEqual({
      count: 2,
      pauseMs: 13.5,
      promotedBytes: 1_500_000,
    });
  });

  it('gives the promotion per second and per play, and the main-thread work of the mark-compacts in the window', () => {
    const figures = gcFigures(TRACE, 100, [], { from: 1000, to: 3000 }, 50, 500);
    expect(figures.scavenges).toBe(2);
    expect(figures.scavengePauseMs).toBe(20.8);
    expect(figures.promotedMBPerSecond).toBe(1.75);
    expect(figures.promotedKBPerPlay).toBe(Math.round((3_500_000 / 1024 / 500) * 100) / 100);
    expect(figures.markCompactMainThreadMs).toBe(56.3);
    expect(figures.collections).toBe(1);
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
