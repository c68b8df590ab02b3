/**
 * Token buckets keyed by a string (a user id): each holds up to `capacity` tokens and gains
 * `perSecond` a second; a call that finds a token takes it. These are in process; cluster mode's
 * (cluster/budgets.ts) count in Redis, so their answer may come later: callers take either.
 */
export interface BudgetStore {
  /** Takes one token from `key`'s bucket; false when it is empty (the call is over budget). */
  take(key: string, now: number): boolean | Promise<boolean>;
}

export interface BucketOptions {
  readonly capacity: number;
  readonly perSecond: number;
}

/** Makes the budget called `name` (in Redis, its keys' part). */
export type BudgetFactory = (name: string, options: BucketOptions) => BudgetStore;

export const memoryBudgets: BudgetFactory = (_name, options) => new MemoryTokenBuckets(options);

/** Buckets that are full again are dropped once the map grows past this, so idle keys cost nothing. */
const SWEEP_ABOVE = 10_000;

export class MemoryTokenBuckets implements BudgetStore {
  readonly #capacity: number;
  readonly #perMs: number;
  readonly #buckets = new Map<string, { tokens: number; at: number }>();

  constructor(options: BucketOptions) {
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
