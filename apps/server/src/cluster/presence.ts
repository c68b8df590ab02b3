/**
 * Who is online: users with at least one socket open (each counted once, however many tabs), for
 * the leaderboard's `totalPlayersOnline` and the admin figures (cluster-wide in cluster
 * mode). The gateway reports each socket that opens and closes; readers ask for the set. A Redis
 * presence's life (heartbeat, leaving on close) is its node's: see counts.ts.
 */
import type { Redis, Result } from 'ioredis';
import { LIVE_NODES, NOW, type NodeCounters, type NodeHeartbeat, bounded, defineScript } from './nodes.ts';

export interface Presence {
  /** A socket of the user opened. */
  connected(userId: string): void;
  /** A socket of the user closed. */
  disconnected(userId: string): void;
  onlineUserIds(): Promise<ReadonlySet<string>>;
}

/** Open sockets per user, in this process. */
export class MemoryPresence implements Presence {
  readonly #sockets = new Map<string, number>();

  connected(userId: string): void {
    this.#sockets.set(userId, (this.#sockets.get(userId) ?? 0) + 1);
  }

  disconnected(userId: string): void {
    const open = (this.#sockets.get(userId) ?? 1) - 1;
    if (open > 0) this.#sockets.set(userId, open);
    else this.#sockets.delete(userId);
  }

  onlineUserIds(): Promise<ReadonlySet<string>> {
    return Promise.resolve(new Set(this.#sockets.keys()));
  }
}

/** KEYS: registry. ARGV: ttl, prefix of the nodes' hashes. The union of the live nodes' users. */
const ONLINE = `local ttl = tonumber(ARGV[1])
${NOW}
${LIVE_NODES}
local seen, users = {}, {}
for _, node in ipairs(nodes) do
  for _, user in ipairs(redis.call('HKEYS', ARGV[2] .. node)) do
    if not seen[user] then seen[user] = true users[#users + 1] = user end
  end
end
return users`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    msOnlineUsers(registry: string, ttlMs: number, prefix: string): Result<string[], Context>;
  }
}

/**
 * Each node keeps a hash of its own users (user id → sockets) that lives as long as its heartbeat;
 * the set is the union over the live nodes, read in one script. While Redis is away the answer is
 * this node's users alone: a figure on a page, better low for a moment than an error.
 */
export class RedisPresence implements Presence {
  readonly #redis: Redis;
  readonly #heartbeat: NodeHeartbeat;
  readonly #users: NodeCounters;
  readonly #prefix: string;

  /** `prefix` + node id is a node's hash. */
  constructor(redis: Redis, heartbeat: NodeHeartbeat, prefix: string) {
    this.#redis = redis;
    this.#heartbeat = heartbeat;
    this.#prefix = prefix;
    this.#users = heartbeat.counters(prefix + heartbeat.nodeId);
    defineScript(redis, 'msOnlineUsers', 1, ONLINE);
  }

  connected(userId: string): void {
    this.#users.add(userId, 1);
  }

  disconnected(userId: string): void {
    this.#users.add(userId, -1);
  }

  async onlineUserIds(): Promise<ReadonlySet<string>> {
    const { registry, timing } = this.#heartbeat;
    try {
      return new Set(await bounded(this.#redis.msOnlineUsers(registry, timing.ttlMs, this.#prefix), timing.waitMs));
    } catch {
      return new Set(this.#users.fields());
    }
  }
}
