/**
 * Wall-clock time and timers behind one small interface, so tests can drive game time by hand (a
 * countdown, an 8-second freeze, a deadlock delay) instead of sleeping, with the real server code.
 */
import { type Alarm, AlarmQueue } from './alarms.ts';

export type { Alarm } from './alarms.ts';

export interface Timer {
  cancel(): void;
}

export interface Clock {
  now(): number;
  /** Runs `fn` at `at` (epoch ms), or as soon as possible when that has passed. */
  at(at: number, fn: () => void): Timer;
  /** A timer to set again and again (a room's next deadline): `ring` runs each time it falls due. */
  alarm(ring: () => void): Alarm;
}

/** setTimeout's longest delay (about 24.8 days); a longer one overflows and fires after 1 ms. */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** The process's alarms: one heap, under one Node timer that fires at the earliest. */
let alarmTimer: ReturnType<typeof setTimeout> | null = null;
const alarms: AlarmQueue = new AlarmQueue(Date.now, (delay) => {
  if (alarmTimer) clearTimeout(alarmTimer);
  // A far alarm fires the timer early; the queue then arms it again for what is left.
  alarmTimer = setTimeout(() => alarms.fire(), Math.min(delay, MAX_TIMEOUT_MS));
  alarmTimer.unref();
});

export const systemClock: Clock = {
  now: () => Date.now(),
  alarm: (ring) => alarms.alarm(ring),
  at(at, fn) {
    let handle: ReturnType<typeof setTimeout>;
    // A far time (a tournament ending months ahead) waits in steps of at most MAX_TIMEOUT_MS.
    const wait = () => {
      const delay = at - Date.now();
      handle = setTimeout(delay > MAX_TIMEOUT_MS ? wait : fn, Math.min(Math.max(0, delay), MAX_TIMEOUT_MS));
      handle.unref?.();
    };
    wait();
    return { cancel: () => clearTimeout(handle) };
  },
};

/** An alarm made of one-off timers, for a clock other than the system's (a test's). */
export function alarmOf(at: Clock['at'], ring: () => void): Alarm {
  let timer: Timer | null = null;
  return {
    set: (time) => {
      timer?.cancel();
      timer = at(time, ring);
    },
    cancel: () => {
      timer?.cancel();
      timer = null;
    },
  };
}

/** Resolves once `ms` of the clock's time has passed. */
export function sleep(clock: Clock, ms: number): Promise<void> {
  return new Promise((resolve) => clock.at(clock.now() + ms, resolve));
}

/** Runs `fn` every `ms` of the clock's time until cancelled (the next run is planned before this one). */
export function every(clock: Clock, ms: number, fn: () => void): Timer {
  let cancelled = false;
  let timer: Timer;
  const plan = () => {
    timer = clock.at(clock.now() + ms, () => {
      if (cancelled) return;
      plan();
      fn();
    });
  };
  plan();
  return {
    cancel: () => {
      cancelled = true;
      timer.cancel();
    },
  };
}

/** Time moves only when `advance` says; due timers then run in time order. */
export class ManualClock implements Clock {
  #now: number;
  #timers: { at: number; fn: () => void; cancelled: boolean; order: number }[] = [];
  #order = 0;

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  /** A timer already due runs on the next turn of the event loop, as a real one would. */
  at(at: number, fn: () => void): Timer {
    const timer = { at, fn, cancelled: false, order: (this.#order += 1) };
    if (at <= this.#now) {
      setImmediate(() => {
        if (!timer.cancelled) fn();
      });
      return { cancel: () => (timer.cancelled = true) };
    }
    this.#timers.push(timer);
    return { cancel: () => (timer.cancelled = true) };
  }

  alarm(ring: () => void): Alarm {
    return alarmOf((at, fn) => this.at(at, fn), ring);
  }

  /** Moves time forward by `ms`, running every timer that falls due on the way, each at its own time. */
  advance(ms: number): void {
    const end = this.#now + ms;
    for (;;) {
      this.#timers = this.#timers.filter((t) => !t.cancelled);
      const due = this.#timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.order - b.order)[0];
      if (!due) break;
      this.#timers.splice(this.#timers.indexOf(due), 1);
      this.#now = Math.max(this.#now, due.at);
      due.fn();
    }
    this.#now = end;
  }

  /** When the next pending timer falls due, or null. */
  nextDue(): number | null {
    const pending = this.#timers.filter((t) => !t.cancelled).map((t) => t.at);
    return pending.length > 0 ? Math.min(...pending) : null;
  }
}
