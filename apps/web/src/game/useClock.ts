/**
 * Clocks that re-render exactly when the seconds they show change (clock.ts has the rounding),
 * rather than on a free-running one-second interval whose phase has nothing to do with when a
 * freeze began: read against a stale "now", an 8 s freeze used to show 9 s.
 */
import { useEffect, useState } from 'react';
import { countdownSeconds, elapsedSeconds, msUntilCountdownChanges, msUntilElapsedChanges } from './clock.ts';

/** A timer that re-renders after `delayMs`, re-armed on every render; null arms nothing. */
function useWakeUp(delayMs: number | null): void {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (delayMs === null) return;
    const timer = setTimeout(() => setTick((n) => n + 1), delayMs);
    return () => clearTimeout(timer);
  });
}

/** Whole seconds left until `until` (epoch ms, this browser's clock), at most `totalMs`; 0 when none. */
export function useCountdownSeconds(until: number | null, totalMs: number): number {
  const remaining = until === null ? 0 : until - Date.now();
  useWakeUp(remaining > 0 ? msUntilCountdownChanges(remaining) : null);
  return countdownSeconds(remaining, totalMs);
}

/** Whole seconds since `since` (epoch ms) while `running`; ticks on the second. */
export function useElapsedSeconds(since: number | null, running: boolean): number {
  const elapsed = since === null ? 0 : Date.now() - since;
  useWakeUp(running && since !== null ? msUntilElapsedChanges(elapsed) : null);
  return elapsedSeconds(elapsed);
}
