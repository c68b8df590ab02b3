/**
 * Token buckets keyed by a string (a user id): each holds up to `capacity` tokens and gains
 * `perSecond` a second; a call that finds a token takes it. The store is in process now; it sits
 * behind `BudgetStore` so that a cluster-wide one (Redis) can take its place without touching callers.
 */
export interface BudgetStore {
  /** Takes one token from `key`'s bucket; false when it is empty (the call is over budget). */
  take(key: string, now: number): boolean;
}

/** Buckets that are full again are dropped once the map grows past this, so idle keys cost nothing. */
const SWEEP_ABOVE = 10_000;

export class MemoryTokenBuckets implements BudgetStore {
  readonly #capacity: number;
  readonly #perMs: number;
  readonly #buckets = new Map<string, { tokens: number; at: number }>();

  constructor(options: { capacity: number; perSecond: number }) {
    this.#capacity = options.capacity;
    this.#perMs = options.perSecond / 1000;
  }

  take(key: string, now: number): boolean {
    let bucket = this.#buckets.get(key);
    if (!bucket) {
      if (this.#buckets.size >= SWEEP_ABOVE) this.#sweep(now);
      bucket = { tokens: this.#capacity, at: now };
      this.#buckets.set(key, bucket);
    } else {
      bucket.tokens = Math.min(this.#capacity, bucket.tokens + Math.max(0, now - bucket.at) * this.#perMs);
      bucket.at = now;
    }
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  get size(): number {
    return this.#buckets.size;
  }

  #sweep(now: number): void {
    for (const [key, bucket] of this.#buckets) {
      if (bucket.tokens + Math.max(0, now - bucket.at) * this.#perMs >= this.#capacity) this.#buckets.delete(key);
    }
  }
}
