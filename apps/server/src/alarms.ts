/**
 * Alarms: timers that are set again and again, such as a game room's next deadline, kept in one
 * min-heap under a single Node timer.
 *
 * A room moves its deadline after nearly every step. With a Node timer per deadline, each move left a
 * Timeout, its closures and often a timer list behind that lived until the deadline (0.3–2 s), long
 * enough on a busy server to be promoted to the old generation: 6–7% of what outlived the young
 * generation at 2,000 games. An alarm is one object for the room's life; setting it moves
 * its place in the heap and allocates nothing. The Node timer under the heap fires at the earliest
 * alarm and lives until then only.
 */

export interface Alarm {
  /** Rings at `at` (epoch ms), or on the next turn when that has passed; replaces any earlier setting. */
  set(at: number): void;
  cancel(): void;
}

class Entry implements Alarm {
  at = 0;
  /** Place in the heap; -1 when not in it. */
  index = -1;
  /** Taken off the heap as due, not yet rung (a `set` or `cancel` meanwhile withdraws it). */
  due = false;
  readonly #queue: AlarmQueue;
  readonly ring: () => void;

  constructor(queue: AlarmQueue, ring: () => void) {
    this.#queue = queue;
    this.ring = ring;
  }

  set(at: number): void {
    this.due = false;
    this.#queue.place(this, at);
  }

  cancel(): void {
    this.due = false;
    this.#queue.remove(this);
  }
}

/**
 * The heap of alarms. `arm(delayMs)` asks the host to call `fire()` once, after at least that long
 * (a new request replaces the last). Alarms due at the same moment ring in no set order.
 */
export class AlarmQueue {
  readonly #now: () => number;
  readonly #arm: (delayMs: number) => void;
  readonly #heap: Entry[] = [];
  /** Alarms taken off the heap by the running `fire` (reused: it allocates nothing once grown). */
  readonly #ringing: Entry[] = [];
  /** When the host's timer is due; null when none is armed. */
  #armedAt: number | null = null;

  constructor(now: () => number, arm: (delayMs: number) => void) {
    this.#now = now;
    this.#arm = arm;
  }

  alarm(ring: () => void): Alarm {
    return new Entry(this, ring);
  }

  get size(): number {
    return this.#heap.length;
  }

  /**
   * Rings every alarm due now. One set during a ring for a time already passed rings at the next
   * `fire`, after the event loop's I/O, so an alarm that keeps falling due cannot starve it.
   */
  fire(): void {
    this.#armedAt = null;
    const now = this.#now();
    const heap = this.#heap;
    const ringing = this.#ringing;
    while (heap.length > 0 && (heap[0] as Entry).at <= now) {
      const entry = this.#pop();
      entry.due = true;
      ringing.push(entry);
    }
    let k = 0;
    try {
      for (; k < ringing.length; k += 1) {
        const entry = ringing[k] as Entry;
        if (!entry.due) continue;
        entry.due = false;
        entry.ring();
      }
    } finally {
      // A ring that threw leaves the rest due: they go back on the heap and ring at the next fire.
      for (k += 1; k < ringing.length; k += 1) {
        const entry = ringing[k] as Entry;
        if (entry.due) entry.set(entry.at);
      }
      ringing.length = 0;
      this.#rearm();
    }
  }

  place(entry: Entry, at: number): void {
    entry.at = at;
    if (entry.index < 0) {
      entry.index = this.#heap.length;
      this.#heap.push(entry);
      this.#up(entry.index);
    } else if (!this.#up(entry.index)) {
      this.#down(entry.index);
    }
    this.#rearm();
  }

  remove(entry: Entry): void {
    const index = entry.index;
    if (index < 0) return;
    const last = this.#heap.pop() as Entry;
    entry.index = -1;
    if (last !== entry) {
      this.#heap[index] = last;
      last.index = index;
      if (!this.#up(index)) this.#down(index);
    }
  }

  /** Arms the host's timer for the earliest alarm, unless it is armed at or before that already. */
  #rearm(): void {
    if (this.#heap.length === 0) return;
    const first = (this.#heap[0] as Entry).at;
    if (this.#armedAt !== null && this.#armedAt <= first) return;
    this.#armedAt = first;
    this.#arm(Math.max(0, first - this.#now()));
  }

  #pop(): Entry {
    const top = this.#heap[0] as Entry;
    this.remove(top);
    return top;
  }

  /** Moves the entry at `index` up while it is earlier than its parent; whether it moved. */
  #up(index: number): boolean {
    const heap = this.#heap;
    const entry = heap[index] as Entry;
    let at = index;
    while (at > 0) {
      const parentAt = (at - 1) >> 1;
      const parent = heap[parentAt] as Entry;
      if (parent.at <= entry.at) break;
      heap[at] = parent;
      parent.index = at;
      at = parentAt;
    }
    heap[at] = entry;
    entry.index = at;
    return at !== index;
  }

  #down(index: number): void {
    const heap = this.#heap;
    const entry = heap[index] as Entry;
    let at = index;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child = right < heap.length && (heap[right] as Entry).at < (heap[left] as Entry).at ? right : left;
      const next = heap[child] as Entry;
      if (next.at >= entry.at) break;
      heap[at] = next;
      next.index = at;
      at = child;
    }
    heap[at] = entry;
    entry.index = at;
  }
}
