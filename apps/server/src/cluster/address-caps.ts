/**
 * Sockets held per client address, for the gateway's per-IP cap (ABUSE_LIMITS.socketsPerIp): a new
 * socket holds a place unless the address has `limit` already, and gives it back when it closes.
 * In cluster mode the count is the address's sockets on every live node. The gateway passes the
 * client's network (networkOf: IPv4 whole, IPv6 its /64; docs/limits.md) as the address.
 */
import type { Redis, Result } from 'ioredis';
import { BEAT_NOW, LIVE_NODES, type NodeCounters, type NodeHeartbeat, defineScript } from './nodes.ts';

export interface AddressCaps {
  /** Holds a place for a socket from `ip`; false (nothing held) when it has `limit` already. */
  hold(ip: string, limit: number): boolean | Promise<boolean>;
  /** Gives back a place that `hold` gave. */
  release(ip: string): void;
}

export class MemoryAddressCaps implements AddressCaps {
  readonly #held = new Map<string, number>();

  hold(ip: string, limit: number): boolean {
    const held = this.#held.get(ip) ?? 0;
    if (held >= limit) return false;
    this.#held.set(ip, held + 1);
    return true;
  }

  release(ip: string): void {
    const left = (this.#held.get(ip) ?? 1) - 1;
    if (left > 0) this.#held.set(ip, left);
    else this.#held.delete(ip);
  }
}

/**
 * KEYS: registry, this node's hash. ARGV: ttl, prefix of the nodes' hashes, address, limit, node id.
 * Sums the address's sockets on the live nodes and holds one on this node if below the limit: one
 * script, so two nodes never both take the last place.
 */
const HOLD = `local ttl = tonumber(ARGV[1])
local node = ARGV[5]
${BEAT_NOW}
${LIVE_NODES}
local held = 0
for _, node in ipairs(nodes) do
  held = held + (tonumber(redis.call('HGET', ARGV[2] .. node, ARGV[3])) or 0)
end
if held >= tonumber(ARGV[4]) then return 0 end
redis.call('HINCRBY', KEYS[2], ARGV[3], 1)
redis.call('PEXPIRE', KEYS[2], ttl)
return 1`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    msHoldAddress(
      registry: string,
      own: string,
      ttlMs: number,
      prefix: string,
      ip: string,
      limit: number,
      nodeId: string,
    ): Result<number, Context>;
  }
}

/**
 * Each node counts its own sockets per address in its own hash (gone with the node if it dies). While
 * Redis is away a node admits by its own count alone: the cap then holds per node (a client reaches
 * `limit` on each), which keeps connecting possible for everyone rather than for no one.
 */
export class RedisAddressCaps implements AddressCaps {
  readonly #redis: Redis;
  readonly #heartbeat: NodeHeartbeat;
  readonly #held: NodeCounters;
  readonly #prefix: string;

  /** `prefix` + node id is a node's hash. */
  constructor(redis: Redis, heartbeat: NodeHeartbeat, prefix: string) {
    this.#redis = redis;
    this.#heartbeat = heartbeat;
    this.#prefix = prefix;
    this.#held = heartbeat.counters(prefix + heartbeat.nodeId);
    defineScript(redis, 'msHoldAddress', 2, HOLD);
  }

  async hold(ip: string, limit: number): Promise<boolean> {
    const { registry, nodeId, timing } = this.#heartbeat;
    try {
      const held = this.#redis.msHoldAddress(registry, this.#held.key, timing.ttlMs, this.#prefix, ip, limit, nodeId);
      if ((await this.#held.writing(held)) !== 1) return false;
      this.#held.countHere(ip, 1);
      return true;
    } catch {
      // The script may yet run (a slow Redis): the next beat writes this node's hash whole either way.
      this.#held.markStale();
      if (this.#held.get(ip) >= limit) return false;
      this.#held.countHere(ip, 1);
      return true;
    }
  }

  release(ip: string): void {
    this.#held.add(ip, -1);
  }
}
