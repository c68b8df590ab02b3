/**
 * Every count that limits or reports users, in process or across the cluster:
 * who is online, sockets per address, the token-bucket budgets (socket events per user, games
 * created per user) and the store of the HTTP rate limits. The app builds one set per node and hands
 * each part to its user, so nothing else knows which kind it has.
 *
 * In Redis, every part fails open while Redis is away, each as its file says: a count is a guard
 * against abuse, and a lost guard for a few seconds is better than a cluster that refuses everyone.
 * What stays per node on purpose: the server's own ceilings (sockets, live rooms: this process's
 * memory) and the per-socket events a second.
 */
import type { Redis } from 'ioredis';
import { type BudgetFactory, memoryBudgets } from '../token-buckets.ts';
import { type AddressCaps, MemoryAddressCaps, RedisAddressCaps } from './address-caps.ts';
import { RedisTokenBuckets } from './budgets.ts';
import { DEFAULT_TIMING, NodeHeartbeat, type NodeTiming } from './nodes.ts';
import { MemoryPresence, type Presence, RedisPresence } from './presence.ts';
import type { ClusterRedis } from './redis.ts';

export interface Counts {
  readonly presence: Presence;
  readonly addresses: AddressCaps;
  readonly budgets: BudgetFactory;
  /** @fastify/rate-limit's Redis store (its `redis` and `nameSpace` options); null: in process. */
  readonly httpLimits: { readonly redis: Redis; readonly nameSpace: string } | null;
  /** Stops this node's heartbeat and takes its counts out of the cluster's at once. */
  close(): Promise<void>;
}

export function memoryCounts(): Counts {
  return {
    presence: new MemoryPresence(),
    addresses: new MemoryAddressCaps(),
    budgets: memoryBudgets,
    httpLimits: null,
    close: async () => {},
  };
}

/** The registry of the cluster's live nodes (cluster/nodes.ts), which every node's heartbeat writes. */
export function nodeRegistry(cluster: ClusterRedis): string {
  return cluster.key('counts', 'nodes');
}

/** This node's counts in the cluster's Redis (`timing`: tests shorten it). */
export function redisCounts(cluster: ClusterRedis, nodeId: string, timing: NodeTiming = DEFAULT_TIMING): Counts {
  const redis = cluster.commands;
  const heartbeat = new NodeHeartbeat(redis, nodeRegistry(cluster), nodeId, timing);
  return {
    presence: new RedisPresence(redis, heartbeat, cluster.key('counts', 'online', '')),
    addresses: new RedisAddressCaps(redis, heartbeat, cluster.key('counts', 'sockets-by-ip', '')),
    budgets: (name, options) =>
      new RedisTokenBuckets(redis, cluster.key('counts', 'budget', name, ''), { ...options, waitMs: timing.waitMs }),
    httpLimits: { redis, nameSpace: cluster.key('counts', 'http', '') },
    close: () => heartbeat.close(),
  };
}
