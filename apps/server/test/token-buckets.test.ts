/** The per-key token buckets behind each user's socket-event budget and game creations. */
import { describe, expect, it } from 'vitest';
import { MemoryTokenBuckets } from '../src/token-buckets.ts';

describe('MemoryTokenBuckets', () => {
  it('gives a burst of `capacity`, then refills at `perSecond`, never above capacity', () => {
    const buckets = new MemoryTokenBuckets({ capacity: 3, perSecond: 2 });
    const takes = (n: number, at: number) => Array.from({ length: n }, () => buckets.take('u', at));
    expect(takes(4, 0)).toEqual([true, true, true, false]);
    expect(takes(2, 499)).toEqual([false, false]);
    expect(takes(2, 500)).toEqual([true, false]);
    // A long pause refills to the capacity, not beyond.
    expect(takes(4, 60_000)).toEqual([true, true, true, false]);
  });

  it('keeps each key apart', () => {
    const buckets = new MemoryTokenBuckets({ capacity: 1, perSecond: 1 });
    expect(buckets.take('a', 0)).toBe(true);
    expect(buckets.take('a', 0)).toBe(false);
    expect(buckets.take('b', 0)).toBe(true);
  });

  it('drops buckets that are full again once there are many, keeping the ones still in debt', () => {
    const buckets = new MemoryTokenBuckets({ capacity: 2, perSecond: 1 });
    for (let i = 0; i < 10_000; i += 1) buckets.take(`idle${i}`, 0);
    expect(buckets.take('busy', 5000)).toBe(true);
    expect(buckets.take('busy', 5000)).toBe(true);
    expect(buckets.size).toBe(1);
    // The one that spent its tokens is still held to them.
    for (let i = 0; i < 10_000; i += 1) buckets.take(`later${i}`, 5000);
    buckets.take('new', 5000);
    expect(buckets.take('busy', 5000)).toBe(false);
  });
});
