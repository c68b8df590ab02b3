/**
 * Token buckets in Redis: one budget per user across every node (a user's sockets may sit on several).
 * Same buckets as MemoryTokenBuckets: `capacity` tokens, `perSecond` refill, a take finds a token or
 * is refused; one script reads, refills and takes atomically. A bucket's key expires when the bucket
 * would be full again, which is exactly a new bucket, so idle users cost nothing.
 *
 * While Redis is away (or does not answer within the wait) the node counts in process instead: a
 * budget guards against floods, it is not worth refusing every play of every user for. A flood then
 * gets one node's budget rather than none; once Redis answers again its counts take over.
 */
import type { Redis, Result } from 'ioredis';
import { type BucketOptions, type BudgetStore, MemoryTokenBuckets } from '../token-buckets.ts';
import { bounded, defineScript } from './nodes.ts';

/**
 * KEYS: bucket. ARGV: capacity, tokens per ms, now (ms, the caller's clock as in memory; nodes' clocks
 * are synchronised, and `at` never goes back, so a node a little behind earns no extra refill).
 */
const TAKE = `local capacity = tonumber(ARGV[1])
local perMs = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens, at = tonumber(state[1]), tonumber(state[2])
if tokens == nil or at == nil then
  tokens, at = capacity, now
else
  tokens = math.min(capacity, tokens + math.max(0, now - at) * perMs)
  at = math.max(at, now)
end
local taken = 0
if tokens >= 1 then
  tokens = tokens - 1
  taken = 1
end
redis.call('HSET', KEYS[1], 'tokens', string.format('%.17g', tokens), 'at', at)
redis.call('PEXPIRE', KEYS[1], math.max(1, math.ceil((capacity - tokens) / perMs)))
return taken`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    msTakeToken(bucket: string, capacity: number, perMs: number, now: number): Result<number, Context>;
  }
}

export class RedisTokenBuckets implements BudgetStore {
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #capacity: number;
  readonly #perMs: number;
  readonly #waitMs: number;
  readonly #fallback: MemoryTokenBuckets;

  /** `prefix` + key is a bucket's Redis key. */
  constructor(redis: Redis, prefix: string, options: BucketOptions & { waitMs: number }) {
    this.#redis = redis;
    this.#prefix = prefix;
    this.#capacity = options.capacity;
    this.#perMs = options.perSecond / 1000;
    this.#waitMs = options.waitMs;
    this.#fallback = new MemoryTokenBuckets(options);
    defineScript(redis, 'msTakeToken', 1, TAKE);
  }

  async take(key: string, now: number): Promise<boolean> {
    try {
      const taken = this.#redis.msTakeToken(this.#prefix + key, this.#capacity, this.#perMs, now);
      return (await bounded(taken, this.#waitMs)) === 1;
    } catch {
      return this.#fallback.take(key, now);
    }
  }
}
