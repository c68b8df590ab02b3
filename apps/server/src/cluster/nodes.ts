/**
 * What the cluster-wide counts (presence, sockets per address) share: a registry of live nodes and a
 * per-node Redis hash of counters. Each node keeps its own counts in its own hash, never in a shared
 * one, so the counts of a node that dies (SIGKILL: no chance to take them back) vanish with it: its
 * hash has a TTL that only its heartbeat renews, and readers take only the nodes whose heartbeat is
 * recent. A shared counter could never lose a dead node's share.
 *
 * The registry is a sorted set: node id → time of its last beat, in Redis's clock (the nodes' clocks
 * never meet). Readers' scripts build the per-node keys from the ids they find there, which is fine on
 * the one Redis a cluster runs on, not on a Redis Cluster.
 */
import type { Redis, Result } from 'ioredis';

/** A node is live while its last beat is this recent; its hashes expire after the same time. */
export const NODE_TTL_MS = 10_000;
/** Three beats per TTL: one lost beat (a slow Redis, a long pause) does not drop a node. */
export const HEARTBEAT_MS = 3_000;
/** A command's answer is waited for this long; after that the caller's fallback answers. */
export const REDIS_WAIT_MS = 500;

export interface NodeTiming {
  readonly ttlMs: number;
  readonly heartbeatMs: number;
  readonly waitMs: number;
}

export const DEFAULT_TIMING: NodeTiming = { ttlMs: NODE_TTL_MS, heartbeatMs: HEARTBEAT_MS, waitMs: REDIS_WAIT_MS };

/** Lua: `now`, milliseconds in Redis's clock. */
export const NOW = `local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/**
 * Lua: records a beat of node `node` in the registry KEYS[1]. Every script that writes a node's hash
 * beats too, so that a hash is never counted late because its node's first beat had not landed yet.
 */
export const BEAT_NOW = `${NOW}
redis.call('ZADD', KEYS[1], now, node)`;

/** KEYS: registry. ARGV: node id, ttl. Records the beat and forgets nodes long gone. */
const BEAT = `local node = ARGV[1]
${BEAT_NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - 6 * tonumber(ARGV[2]))
return now`;

/**
 * Lua: `nodes`, the ids of the live nodes (KEYS[1] is the registry; `now` and `ttl` are set), for the
 * readers' scripts, which find them and read their hashes in one atomic step.
 */
export const LIVE_NODES = `local nodes = redis.call('ZRANGEBYSCORE', KEYS[1], now - ttl, '+inf')`;

/** KEYS: registry, hash. ARGV: node id, field, by (+1/-1), ttl. A field that falls to 0 is removed. */
const ADD = `local node = ARGV[1]
${BEAT_NOW}
local n = redis.call('HINCRBY', KEYS[2], ARGV[2], ARGV[3])
if n <= 0 then redis.call('HDEL', KEYS[2], ARGV[2]) end
redis.call('PEXPIRE', KEYS[2], ARGV[4])
return n`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    msNodeBeat(registry: string, nodeId: string, ttlMs: number): Result<number, Context>;
    msNodeAdd(
      registry: string,
      hash: string,
      nodeId: string,
      field: string,
      by: number,
      ttlMs: number,
    ): Result<number, Context>;
  }
}

/** Defines a script once per client (EVALSHA, with EVAL after a Redis restart lost it: ioredis's own). */
export function defineScript(redis: Redis, name: string, numberOfKeys: number, lua: string): void {
  if (!(name in redis)) redis.defineCommand(name, { numberOfKeys, lua });
}

/** `promise`, or a rejection after `ms`: a stalled Redis (up but not answering) never holds a caller. */
export function bounded<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * This node's counters (field → count) in process, mirrored to its own Redis hash. A write that
 * fails (Redis away) leaves the mirror stale: the next beat that reaches Redis writes it whole again,
 * as it does when the hash is found gone (Redis restarted empty).
 */
export class NodeCounters {
  readonly key: string;
  readonly #redis: Redis;
  readonly #node: NodeHeartbeat;
  readonly #counts = new Map<string, number>();
  /** Starts stale: a restarted node with the same id replaces what its predecessor left. */
  #stale = true;
  /** Callers' scripts under way that write this hash. */
  #writing = 0;

  constructor(redis: Redis, key: string, node: NodeHeartbeat) {
    this.#redis = redis;
    this.key = key;
    this.#node = node;
    defineScript(redis, 'msNodeAdd', 2, ADD);
  }

  get(field: string): number {
    return this.#counts.get(field) ?? 0;
  }

  fields(): IterableIterator<string> {
    return this.#counts.keys();
  }

  /** Counts `by` here and in Redis. */
  add(field: string, by: 1 | -1): void {
    this.countHere(field, by);
    if (this.#stale) return;
    const { registry, nodeId, timing } = this.#node;
    bounded(this.#redis.msNodeAdd(registry, this.key, nodeId, field, by, timing.ttlMs), timing.waitMs).catch(() => {
      this.#stale = true;
    });
  }

  /** Counts `by` here only: a caller's script (see `writing`) counted it in Redis, or could not. */
  countHere(field: string, by: 1 | -1): void {
    const count = this.get(field) + by;
    if (count > 0) this.#counts.set(field, count);
    else this.#counts.delete(field);
  }

  /**
   * A caller's script that writes this hash. While one is under way the hash is not written whole:
   * that could erase the script's change before this node has counted it here.
   */
  async writing<T>(script: Promise<T>): Promise<T> {
    this.#writing += 1;
    try {
      return await bounded(script, this.#node.timing.waitMs);
    } finally {
      this.#writing -= 1;
    }
  }

  /** A change Redis did not get (its fallback answered): rewritten at the next beat. */
  markStale(): void {
    this.#stale = true;
  }

  /** Renews the hash's TTL, or writes it whole when it is stale or gone. */
  async refresh(): Promise<void> {
    const { ttlMs, waitMs } = this.#node.timing;
    if (!this.#stale) {
      const renewed = await bounded(this.#redis.pexpire(this.key, ttlMs), waitMs);
      if (renewed === 1 || this.#counts.size === 0) return;
      this.#stale = true;
    }
    if (this.#writing > 0) return;
    // Changes made after the snapshot is sent are sent after it, on the same connection.
    this.#stale = false;
    const write = this.#redis.multi().del(this.key);
    if (this.#counts.size > 0) write.hset(this.key, Object.fromEntries(this.#counts)).pexpire(this.key, ttlMs);
    try {
      await bounded(write.exec(), waitMs);
    } catch (error) {
      this.#stale = true;
      throw error;
    }
  }

  /** A node that stops cleanly takes its counts away at once rather than after the TTL. */
  async remove(): Promise<void> {
    this.#counts.clear();
    await bounded(this.#redis.del(this.key), this.#node.timing.waitMs);
  }
}

/**
 * This node's heartbeat: every `heartbeatMs` it records itself in the registry and renews its
 * counters' hashes. A beat that fails (Redis away) is simply tried again at the next one.
 */
export class NodeHeartbeat {
  readonly nodeId: string;
  readonly registry: string;
  readonly timing: NodeTiming;
  readonly #redis: Redis;
  readonly #counters: NodeCounters[] = [];
  readonly #timer: NodeJS.Timeout;
  #beating: Promise<void> = Promise.resolve();

  constructor(redis: Redis, registry: string, nodeId: string, timing: NodeTiming = DEFAULT_TIMING) {
    this.#redis = redis;
    this.registry = registry;
    this.nodeId = nodeId;
    this.timing = timing;
    defineScript(redis, 'msNodeBeat', 1, BEAT);
    // A beat never rejects (a failed one is retried at the next), so nobody needs to wait for it.
    this.#timer = setInterval(() => void this.beat(), timing.heartbeatMs).unref();
    // The first beat registers the node; counters made right after it are written by it too.
    void this.beat();
  }

  /** Counters whose hash lives as long as this node beats. */
  counters(key: string): NodeCounters {
    const counters = new NodeCounters(this.#redis, key, this);
    this.#counters.push(counters);
    return counters;
  }

  /** One beat now (after the one under way); resolves when it is done, whether or not Redis took it. */
  beat(): Promise<void> {
    this.#beating = this.#beating.then(async () => {
      try {
        await bounded(this.#redis.msNodeBeat(this.registry, this.nodeId, this.timing.ttlMs), this.timing.waitMs);
        await Promise.all(this.#counters.map((c) => c.refresh()));
      } catch {
        // Redis is away: the counts stay in process and are written whole once it is back.
      }
    });
    return this.#beating;
  }

  /** Stops beating and leaves the registry, taking this node's counts with it (best effort). */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.#beating;
    await Promise.allSettled([
      bounded(this.#redis.zrem(this.registry, this.nodeId), this.timing.waitMs),
      ...this.#counters.map((c) => c.remove()),
    ]);
  }
}
