/**
 * The Play now queue of a cluster, in its Redis: one queue for every node, so two
 * people on two nodes meet. Keys (under the cluster's prefix, `mm:`):
 *
 * - `queue`: user id → the entry (JSON: who, the node whose socket queued them, rating, size, ...);
 *   `since`: user id → when they began waiting; `offered`: who was offered a bot game.
 * - `matcher`: the node that pairs, under a lease (LEASE_TTL_MS, renewed each tick). Two nodes may
 *   both believe they lead for a moment (a paused matcher); `take` is atomic, so a person is still
 *   seated at one table at most.
 * - `cooldown:<user>` (expiring), `met:<pair>`: a sorted set of the pair's meetings (expiring).
 *
 * A node that dies leaves its people's entries behind. Their pages reconnect to another node and queue
 * again, keeping their wait (the entry names the new node); the entries of a node that stays gone
 * (past the node registry's TTL: it stopped beating) are dropped when the matcher reads the queue, so
 * nobody is ever seated with someone who is no longer there.
 */
import { randomUUID } from 'node:crypto';
import type { Redis, Result } from 'ioredis';
import type { LeaseRedis } from '../cluster/redis-ports.ts';
import { LIVE_NODES, NOW, defineScript } from '../cluster/nodes.ts';
import type { User } from '../games/requests.ts';
import type { TableSize } from './pairing.ts';
import { MEETINGS_WINDOW_MS, type QueueEntry, type QueueSnapshot, type QueueStore } from './store.ts';

/** The matcher's lease: renewed every tick (1 s); another node takes over this long after the last. */
export const MATCHER_LEASE_MS = 3000;

/**
 * KEYS: queue, since, offered. ARGV: user id, entry, now. Resolves with the time they began waiting
 * (a new stay starts with no bot offer: one left behind by an entry dropped meanwhile is forgotten).
 */
const PUT = `if redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) == 1 then
  redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
  redis.call('SREM', KEYS[3], ARGV[1])
end
return redis.call('HGET', KEYS[2], ARGV[1])`;

/** KEYS: queue, since, offered. ARGV: user ids. Takes them all out, or nobody if one is missing: 1 or 0. */
const TAKE = `for _, id in ipairs(ARGV) do
  if redis.call('HEXISTS', KEYS[1], id) == 0 then return 0 end
end
redis.call('HDEL', KEYS[1], unpack(ARGV))
redis.call('HDEL', KEYS[2], unpack(ARGV))
redis.call('SREM', KEYS[3], unpack(ARGV))
return 1`;

/**
 * KEYS: the node registry (LIVE_NODES reads KEYS[1]), queue, since, offered. ARGV: the registry's TTL. Every entry of a live node
 * as id, entry, since, offered (0/1); the entries of nodes gone are removed.
 */
const SNAPSHOT = `${NOW}
local ttl = tonumber(ARGV[1])
${LIVE_NODES}
local live = {}
for _, node in ipairs(nodes) do live[node] = true end
local all = redis.call('HGETALL', KEYS[2])
local out = {}
for i = 1, #all, 2 do
  local id, value = all[i], all[i + 1]
  local ok, entry = pcall(cjson.decode, value)
  if ok and type(entry) == 'table' and live[entry.node] then
    table.insert(out, id)
    table.insert(out, value)
    table.insert(out, redis.call('HGET', KEYS[3], id) or '0')
    table.insert(out, redis.call('SISMEMBER', KEYS[4], id))
  else
    redis.call('HDEL', KEYS[2], id)
    redis.call('HDEL', KEYS[3], id)
    redis.call('SREM', KEYS[4], id)
  end
end
return out`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    msQueuePut(
      queue: string,
      since: string,
      offered: string,
      userId: string,
      entry: string,
      now: number,
    ): Result<string, Context>;
    msQueueTake(queue: string, since: string, offered: string, ...userIds: string[]): Result<number, Context>;
    msQueueSnapshot(
      registry: string,
      queue: string,
      since: string,
      offered: string,
      ttlMs: number,
    ): Result<(string | number)[], Context>;
  }
}

/** What an entry keeps in Redis (its user id is the field; `since` has a hash of its own). */
interface Stored {
  readonly user: User;
  readonly node: string;
  readonly rating: number;
  readonly size: TableSize;
  readonly address: string;
  readonly paceMs: number;
}

export class RedisQueueStore implements QueueStore {
  readonly shared = true;
  readonly #redis: Redis;
  readonly #leases: LeaseRedis;
  readonly #nodeId: string;
  readonly #registry: { readonly key: string; readonly ttlMs: number };
  readonly #keys: {
    readonly queue: string;
    readonly since: string;
    readonly offered: string;
    readonly matcher: string;
  };
  readonly #key: (...parts: string[]) => string;

  constructor(deps: {
    /** The cluster's command connection (fails fast while Redis is away). */
    redis: Redis;
    /** The same Redis as leases use it (the matcher's lease). */
    leases: LeaseRedis;
    nodeId: string;
    /** The registry of live nodes (cluster/nodes.ts) and how recent a beat must be. */
    registry: { key: string; ttlMs: number };
  }) {
    this.#redis = deps.redis;
    this.#leases = deps.leases;
    this.#nodeId = deps.nodeId;
    this.#registry = deps.registry;
    this.#key = (...parts) => deps.leases.key('mm', ...parts);
    this.#keys = {
      queue: this.#key('queue'),
      since: this.#key('since'),
      offered: this.#key('offered'),
      matcher: this.#key('matcher'),
    };
    defineScript(this.#redis, 'msQueuePut', 3, PUT);
    defineScript(this.#redis, 'msQueueTake', 3, TAKE);
    defineScript(this.#redis, 'msQueueSnapshot', 4, SNAPSHOT);
  }

  async put(entry: Omit<QueueEntry, 'since'>, now: number): Promise<number> {
    const { queue, since, offered } = this.#keys;
    const stored: Stored = {
      user: entry.user,
      node: entry.node,
      rating: entry.rating,
      size: entry.size,
      address: entry.address,
      paceMs: entry.paceMs,
    };
    return Number(await this.#redis.msQueuePut(queue, since, offered, entry.userId, JSON.stringify(stored), now));
  }

  async remove(userId: string): Promise<boolean> {
    const { queue, since, offered } = this.#keys;
    const [removed] = (await this.#redis
      .multi()
      .hdel(queue, userId)
      .hdel(since, userId)
      .srem(offered, userId)
      .exec()) as [[Error | null, number], ...unknown[]];
    return removed[1] === 1;
  }

  count(): Promise<number> {
    return this.#redis.hlen(this.#keys.queue);
  }

  async snapshot(): Promise<QueueSnapshot> {
    const { queue, since, offered } = this.#keys;
    const flat = await this.#redis.msQueueSnapshot(this.#registry.key, queue, since, offered, this.#registry.ttlMs);
    const entries: QueueEntry[] = [];
    const offeredTo = new Set<string>();
    for (let i = 0; i + 3 < flat.length; i += 4) {
      const userId = String(flat[i]);
      const stored = JSON.parse(String(flat[i + 1])) as Stored;
      entries.push({ ...stored, userId, since: Number(flat[i + 2]) });
      if (Number(flat[i + 3]) === 1) offeredTo.add(userId);
    }
    return { entries, offered: offeredTo };
  }

  async take(userIds: readonly string[]): Promise<boolean> {
    if (userIds.length === 0) return true;
    const { queue, since, offered } = this.#keys;
    return (await this.#redis.msQueueTake(queue, since, offered, ...userIds)) === 1;
  }

  async restore(entries: readonly QueueEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const batch = this.#redis.multi();
    for (const { since, ...entry } of entries) {
      const { user, node, rating, size, address, paceMs } = entry;
      const stored: Stored = { user, node, rating, size, address, paceMs };
      batch.hset(this.#keys.queue, entry.userId, JSON.stringify(stored)).hset(this.#keys.since, entry.userId, since);
    }
    await batch.exec();
  }

  async markOffered(userId: string): Promise<void> {
    await this.#redis.sadd(this.#keys.offered, userId);
  }

  async cooldownUntil(userId: string, now: number): Promise<number> {
    const until = Number((await this.#redis.get(this.#key('cooldown', userId))) ?? 0);
    return until > now ? until : 0;
  }

  async setCooldown(userId: string, until: number, now: number): Promise<void> {
    await this.#redis.set(this.#key('cooldown', userId), String(until), 'PX', Math.max(1, until - now));
  }

  async meetings(pairKeys: readonly string[], now: number): Promise<Map<string, number>> {
    if (pairKeys.length === 0) return new Map();
    const batch = this.#redis.multi();
    for (const key of pairKeys) batch.zcount(this.#key('met', key), `(${now - MEETINGS_WINDOW_MS}`, '+inf');
    const counts = (await batch.exec()) ?? [];
    return new Map(pairKeys.map((key, i) => [key, Number(counts[i]?.[1] ?? 0)]));
  }

  async met(pairKey: string, now: number): Promise<void> {
    const key = this.#key('met', pairKey);
    await this.#redis
      .multi()
      .zremrangebyscore(key, '-inf', now - MEETINGS_WINDOW_MS)
      .zadd(key, now, randomUUID())
      .pexpire(key, MEETINGS_WINDOW_MS)
      .exec();
  }

  async lead(): Promise<boolean> {
    const [result] = await this.#leases.renew([this.#keys.matcher], [this.#nodeId], MATCHER_LEASE_MS, true);
    return result === 1 || result === 2;
  }

  async close(): Promise<void> {
    await this.#leases.deleteIf(this.#keys.matcher, this.#nodeId);
  }
}
