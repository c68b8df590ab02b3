/** The system clock's timers: a time further ahead than setTimeout can wait must not fire at once. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_TIMEOUT_MS, systemClock } from '../src/clock.ts';

describe('systemClock.at', () => {
  afterEach(() => {
    // The spy first: it wraps the fake setTimeout, and put back after the real timers it would leave
    // the fake one in place for the files that run after this one in the same worker.
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it('waits in steps for a time beyond the 32-bit timeout limit, then runs once', () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 0, 1) });
    const setTimeoutSpy = vi.spyOn(globalThis, 'setTimeout');
    const fn = vi.fn();
    const yearAhead = Date.now() + 365 * 86_400_000;
    systemClock.at(yearAhead, fn);
    for (const [, delay] of setTimeoutSpy.mock.calls) expect(delay).toBeLessThanOrEqual(MAX_TIMEOUT_MS);
    vi.advanceTimersByTime(MAX_TIMEOUT_MS + 1);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(yearAhead - Date.now() - 1);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledTimes(1);
    for (const [, delay] of setTimeoutSpy.mock.calls) expect(delay).toBeLessThanOrEqual(MAX_TIMEOUT_MS);
  });

  it('cancels a far timer between its steps', () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 0, 1) });
    const fn = vi.fn();
    const timer = systemClock.at(Date.now() + 3 * MAX_TIMEOUT_MS, fn);
    vi.advanceTimersByTime(MAX_TIMEOUT_MS + 10);
    timer.cancel();
    vi.advanceTimersByTime(3 * MAX_TIMEOUT_MS);
    expect(fn).not.toHaveBeenCalled();
  });
});
