/**
 * A count of attempts in a window that an attempt can give back: the failed sign-ins of an account
 * (rate-limits.ts, docs/limits.md). An attempt is counted before it is checked, so attempts sent at
 * once cannot all pass a count that only failures raise; one that turns out not to be a failure (a
 * right password, a refusal) gives its place back. @fastify/rate-limit's stores only count up, so this
 * keeps its own: in process, or in the same Redis under the HTTP limits' prefix in cluster mode.
 *
 * A window starts with its first attempt and lasts `windowMs`. Giving back reaches only the window the
 * attempt was counted in: after that window ended, a late give-back does not lower the next one.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/** An attempt as counted: the window's count with it, the ms until that window ends. */
export interface Attempt {
  readonly key: string;
  readonly count: number;
  readonly ttlMs: number;
  /** Which window counted it (a give-back to a later window is ignored). */
  readonly window: unknown;
}

export interface AttemptCounts {
  /** Counts one attempt under `key`; null when the count could not be reached (Redis away: let through). */
  take(key: string): Promise<Attempt | null>;
  /** Gives `attempt` back, if its window still runs. */
  giveBack(attempt: Attempt): Promise<void>;
}

interface MemoryWindow {
  count: number;
  endsAt: number;
}

/** In process. Ended windows are dropped when their key is next counted, and swept when many pile up. */
export function memoryAttemptCounts(windowMs: number, now: () => number = Date.now): AttemptCounts {
  const windows = new Map<string, MemoryWindow>();
  const sweep = (at: number) => {
    for (const [key, window] of windows) if (window.endsAt <= at) windows.delete(key);
  };
  return {
    take: async (key) => {
      const at = now();
      let window = windows.get(key);
      if (!window || window.endsAt <= at) {
        if (windows.size >= 10_000) sweep(at);
        window = { count: 0, endsAt: at + windowMs };
        windows.set(key, window);
      }
      window.count += 1;
      return { key, count: window.count, ttlMs: window.endsAt - at, window };
    },
    giveBack: async (attempt) => {
      const window = windows.get(attempt.key);
      if (window && window === attempt.window && window.endsAt > now() && window.count > 0) window.count -= 1;
    },
  };
}

/** Counts the attempt; the window's token is set by the attempt that opens it (HSETNX). → {count, ttl, token} */
const TAKE = `
local count = redis.call('HINCRBY', KEYS[1], 'n', 1)
redis.call('HSETNX', KEYS[1], 'w', ARGV[2])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl, redis.call('HGET', KEYS[1], 'w')}
`;

/** Gives one back when the window that counted it (its token) still runs. */
const GIVE_BACK = `
if redis.call('HGET', KEYS[1], 'w') == ARGV[1] and tonumber(redis.call('HGET', KEYS[1], 'n')) > 0 then
  redis.call('HINCRBY', KEYS[1], 'n', -1)
end
return 0
`;

/**
 * In Redis, one hash per key (`n`: the count, `w`: the window's token) that expires with its window,
 * so every node counts together. A failed command lets the attempt through, like the other HTTP limits
 * (`skipOnError`): the cluster's command connection has no offline queue, so that is at once.
 */
export function redisAttemptCounts(redis: Redis, prefix: string, windowMs: number): AttemptCounts {
  return {
    take: async (key) => {
      try {
        const [count, ttl, window] = (await redis.eval(TAKE, 1, prefix + key, windowMs, randomUUID())) as [
          number,
          number,
          string,
        ];
        return { key, count, ttlMs: ttl, window };
      } catch {
        return null;
      }
    },
    giveBack: async (attempt) => {
      try {
        await redis.eval(GIVE_BACK, 1, prefix + attempt.key, String(attempt.window));
      } catch {
        // Redis away: the place comes back when the window ends.
      }
    },
  };
}
