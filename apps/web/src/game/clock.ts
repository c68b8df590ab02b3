/**
 * One rounding rule for every clock the game screens show, so they agree with the server and with
 * each other. A countdown (a freeze's time left) rounds up and never shows more than its whole
 * length: an 8000 ms freeze reads 8 s the moment it starts, 1 s in its last second, and is gone at
 * 0. Elapsed time (the game clock, a result's time, a replay's steps) rounds down: a game of
 * 61 900 ms reads 1:01 on its result and in its replay alike.
 */
import { formatGameTime } from '@memeslam/protocol/game-texts';

/** Whole seconds left of a countdown, rounded up, never more than its whole length nor below 0. */
export function countdownSeconds(remainingMs: number, totalMs: number): number {
  const clamped = Math.min(Math.max(remainingMs, 0), Math.max(totalMs, 0));
  return Math.ceil(clamped / 1000);
}

/** How long until a countdown's shown seconds change (its remaining time crosses a whole second). */
export function msUntilCountdownChanges(remainingMs: number): number {
  if (remainingMs <= 0) return 0;
  return remainingMs % 1000 || 1000;
}

/** Whole seconds elapsed, rounded down, never below 0. */
export function elapsedSeconds(elapsedMs: number): number {
  return Math.max(0, Math.floor(elapsedMs / 1000));
}

/** How long until the elapsed seconds shown next change. */
export function msUntilElapsedChanges(elapsedMs: number): number {
  if (elapsedMs < 0) return -elapsedMs;
  return 1000 - (elapsedMs % 1000);
}

/** Elapsed time as m:ss, rounded down. */
export function formatElapsed(elapsedMs: number): string {
  return formatGameTime(elapsedSeconds(elapsedMs));
}
