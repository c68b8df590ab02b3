/** The game screens' one rounding rule: countdowns round up within their length, elapsed time rounds down. */
import { describe, expect, it } from 'vitest';
import {
  countdownSeconds,
  elapsedSeconds,
  formatElapsed,
  msUntilCountdownChanges,
  msUntilElapsedChanges,
} from '../src/game/clock.ts';

describe('countdownSeconds', () => {
  it.each([
    [8000, 8],
    [7999, 8],
    [7001, 8],
    [7000, 7],
    [1, 1],
    [0, 0],
    [-250, 0],
  ])('%i ms left of an 8 s freeze reads %i s', (left, shown) => {
    expect(countdownSeconds(left, 8000)).toBe(shown);
  });

  it('never reads more than its whole length, even against a clock read late or a skewed start', () => {
    // An 8 s freeze seen against a "now" up to a second old used to read 9 s.
    expect(countdownSeconds(8999, 8000)).toBe(8);
    expect(countdownSeconds(60_000, 8000)).toBe(8);
  });

  it('counts 8, 7, … 1 over a whole freeze, each for one second', () => {
    const shown = new Map<number, number>();
    for (let left = 8000; left > 0; left -= 10) {
      const s = countdownSeconds(left, 8000);
      shown.set(s, (shown.get(s) ?? 0) + 10);
    }
    expect([...shown.keys()]).toEqual([8, 7, 6, 5, 4, 3, 2, 1]);
    expect(new Set(shown.values())).toEqual(new Set([1000]));
  });
});

describe('msUntilCountdownChanges', () => {
  it('wakes up exactly when the seconds shown change', () => {
    expect(msUntilCountdownChanges(8000)).toBe(1000);
    expect(msUntilCountdownChanges(7300)).toBe(300);
    expect(countdownSeconds(7300 - 300, 8000)).toBe(7);
    expect(countdownSeconds(7300 - 299, 8000)).toBe(8);
    expect(msUntilCountdownChanges(0)).toBe(0);
  });
});

describe('elapsed time', () => {
  it.each([
    [0, 0, '0:00'],
    [999, 0, '0:00'],
    [1000, 1, '0:01'],
    [61_600, 61, '1:01'],
    [61_999, 61, '1:01'],
    [62_000, 62, '1:02'],
    [600_500, 600, '10:00'],
    [-40, 0, '0:00'],
  ])('%i ms is %i s, %s', (ms, seconds, text) => {
    expect(elapsedSeconds(ms)).toBe(seconds);
    expect(formatElapsed(ms)).toBe(text);
  });

  it('wakes up at the next whole second', () => {
    expect(msUntilElapsedChanges(61_600)).toBe(400);
    expect(msUntilElapsedChanges(62_000)).toBe(1000);
    expect(msUntilElapsedChanges(-300)).toBe(300);
  });
});
