/**
 * What a game's ownership needs of Redis, as two narrow interfaces: the keys that leases, seats and
 * the user's turn live in (`LeaseRedis`), and the pub/sub the nodes talk over (`PubSub`). Production
 * passes the cluster's Redis (the adapters below, with their Lua scripts); unit tests pass an
 * in-memory fake (test/helpers/fake-redis.ts) and a manual clock.
 */
import type { ClusterRedis } from './redis.ts';

export interface LeaseRedis {
  /** Whether commands can be sent now. */
  readonly up: boolean;
  /** Whether Redis has been reachable for at least `ms` without a break. */
  upFor(ms: number): boolean;
  /** `listener` runs each time the command connection is (re)established. */
  onUp(listener: () => void): void;
  /** The cluster's key (or channel) of these parts. */
  key(...parts: string[]): string;
  /** SET NX, expiring after `ttlMs`: true if the key was free and is now `value`. */
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** SET, expiring after `ttlMs` if given. */
  set(key: string, value: string, ttlMs?: number): Promise<void>;
  get(key: string): Promise<string | null>;
  mget(keys: readonly string[]): Promise<(string | null)[]>;
  /** Deletes the key only while it holds `value`. */
  deleteIf(key: string, value: string): Promise<void>;
  /**
   * One renewal round, atomic: per key, 1 renewed (it held `values[i]`: its TTL is `ttlMs` again),
   * 2 taken back (it was gone and `retake`), 0 lost (held by another value, or gone and not `retake`).
   */
  renew(keys: readonly string[], values: readonly string[], ttlMs: number, retake: boolean): Promise<number[]>;
}

export interface PubSub {
  key(...parts: string[]): string;
  /** Resolves with the number of subscribers that got it (0: nobody listens there). */
  publish(channel: string, message: string): Promise<number>;
  subscribe(...channels: string[]): Promise<void>;
  onMessage(listener: (channel: string, message: string) => void): void;
}

/** See LeaseRedis.renew: ARGV[1] the TTL, ARGV[2] 1 to take back gone keys, ARGV[3..] the values. */
const RENEW = `
local out = {}
for i, key in ipairs(KEYS) do
  local held = redis.call('GET', key)
  if held == ARGV[i + 2] then
    redis.call('PEXPIRE', key, ARGV[1])
    out[i] = 1
  elseif not held and ARGV[2] == '1' then
    redis.call('SET', key, ARGV[i + 2], 'PX', ARGV[1])
    out[i] = 2
  else
    out[i] = 0
  end
end
return out`;

/** Deletes KEYS[1] only while it holds ARGV[1]. */
const DELETE_IF = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/** The cluster's Redis as leases use it: `commands`, which fails fast while Redis is away. */
export function redisLeases(redis: ClusterRedis): LeaseRedis {
  const commands = redis.commands;
  return {
    get up() {
      return redis.up;
    },
    upFor: (ms) => redis.upFor(ms),
    onUp: (listener) => redis.onUp(listener),
    key: (...parts) => redis.key(...parts),
    setIfAbsent: async (key, value, ttlMs) => (await commands.set(key, value, 'PX', ttlMs, 'NX')) === 'OK',
    set: async (key, value, ttlMs) => {
      if (ttlMs === undefined) await commands.set(key, value);
      else await commands.set(key, value, 'PX', ttlMs);
    },
    get: (key) => commands.get(key),
    mget: (keys) => commands.mget([...keys]),
    deleteIf: async (key, value) => {
      await commands.eval(DELETE_IF, 1, key, value);
    },
    renew: async (keys, values, ttlMs, retake) =>
      (await commands.eval(RENEW, keys.length, ...keys, ttlMs, retake ? '1' : '0', ...values)) as number[],
  };
}

/** The cluster's Redis as the bus uses it: publishes on `commands`, listens on `listen`. */
export function redisPubSub(redis: ClusterRedis): PubSub {
  return {
    key: (...parts) => redis.key(...parts),
    publish: (channel, message) => redis.commands.publish(channel, message),
    subscribe: async (...channels) => {
      await redis.listen.subscribe(...channels);
    },
    onMessage: (listener) => {
      redis.listen.on('message', listener);
    },
  };
}
