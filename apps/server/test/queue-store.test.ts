/**
 * The Play now queue's store, in process and in the cluster's Redis, held to one contract: a join
 * keeps the wait, a table is taken whole or not at all, cooldowns and meetings expire. Redis only: two
 * nodes' stores share one queue and one matcher lease (taken over when it lapses), concurrent takes of
 * one person seat them once, and the entries of a node that stopped beating are dropped.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { nodeRegistry } from '../src/cluster/counts.ts';
import { forgetKeys } from '../src/cluster/forget-keys.ts';
import { NodeHeartbeat } from '../src/cluster/nodes.ts';
import type { ClusterRedis } from '../src/cluster/redis.ts';
import { redisLeases } from '../src/cluster/redis-ports.ts';
import { MATCHER_LEASE_MS, RedisQueueStore } from '../src/matchmaking/redis-store.ts';
import { MEETINGS_WINDOW_MS, MemoryQueueStore, type QueueEntry, type QueueStore } from '../src/matchmaking/store.ts';
import { clusterName, describeRedis, node } from './helpers/redis.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function entry(userId: string, nodeId = 'node-a'): Omit<QueueEntry, 'since'> {
  return {
    user: { id: userId, username: `name-${userId}` },
    userId,
    node: nodeId,
    rating: 1500,
    size: 'any',
    address: '10.0.0.1',
    paceMs: 2000,
  };
}

/** One cluster of nodes on the shared Redis, each beating in the node registry; forgotten after. */
function redisCluster() {
  const name = clusterName();
  const opened: ClusterRedis[] = [];
  const heartbeats: NodeHeartbeat[] = [];
  return {
    /** A node's store; `beating: false` makes one beat and no more, as a node SIGKILLed right after. */
    async store(nodeId: string, ttlMs = 10_000, beating = true): Promise<RedisQueueStore> {
      const redis = await node(name);
      opened.push(redis);
      if (beating) {
        const heartbeat = new NodeHeartbeat(redis.commands, nodeRegistry(redis), nodeId, {
          ttlMs,
          heartbeatMs: Math.floor(ttlMs / 3),
          waitMs: 500,
        });
        await heartbeat.beat();
        heartbeats.push(heartbeat);
      } else {
        const [seconds, micros] = await redis.commands.time();
        await redis.commands.zadd(
          nodeRegistry(redis),
          Number(seconds) * 1000 + Math.floor(Number(micros) / 1000),
          nodeId,
        );
      }
      return new RedisQueueStore({
        redis: redis.commands,
        leases: redisLeases(redis),
        nodeId,
        registry: { key: nodeRegistry(redis), ttlMs },
      });
    },
    async close() {
      for (const heartbeat of heartbeats) await heartbeat.close();
      for (const redis of opened) await redis.close();
      await forgetKeys(process.env.REDIS_URL as string, new URL(name).pathname.slice(1));
    },
  };
}

const clusters: ReturnType<typeof redisCluster>[] = [];
afterAll(async () => {
  for (const cluster of clusters) await cluster.close();
});

const kinds: [string, () => Promise<QueueStore>][] = [['in process', async () => new MemoryQueueStore()]];
if (process.env.REDIS_URL) {
  kinds.push([
    'Redis',
    async () => {
      const cluster = redisCluster();
      clusters.push(cluster);
      return cluster.store('node-a');
    },
  ]);
}

describe.each(kinds)('the queue store, %s', (_kind, make) => {
  it('keeps the time a person began waiting and their bot offer when they queue again; a new stay starts afresh', async () => {
    const store = await make();
    expect(await store.put(entry('u1'), 1000)).toBe(1000);
    await store.markOffered('u1');
    expect((await store.snapshot()).offered).toEqual(new Set(['u1']));
    expect(await store.put({ ...entry('u1'), size: 3 }, 5000)).toBe(1000);
    const { entries, offered } = await store.snapshot();
    expect(entries).toEqual([{ ...entry('u1'), size: 3, since: 1000 }]);
    expect(offered).toEqual(new Set(['u1']));
    expect(await store.count()).toBe(1);
    expect(await store.remove('u1')).toBe(true);
    expect(await store.remove('u1')).toBe(false);
    expect(await store.count()).toBe(0);
    expect(await store.put(entry('u1'), 9000)).toBe(9000);
    expect((await store.snapshot()).offered.size).toBe(0);
  });

  it('takes a table whole, or nobody when one of it left; restores it as it was', async () => {
    const store = await make();
    await store.put(entry('a'), 1);
    await store.put(entry('b'), 2);
    await store.remove('b');
    expect(await store.take(['a', 'b'])).toBe(false);
    expect(await store.count()).toBe(1);
    await store.put(entry('b'), 3);
    expect(await store.take(['a', 'b'])).toBe(true);
    expect(await store.count()).toBe(0);
    await store.restore([{ ...entry('a'), since: 1 }]);
    expect((await store.snapshot()).entries).toEqual([{ ...entry('a'), since: 1 }]);
  });

  it('keeps a cooldown until it ends, and counts meetings of the last hour', async () => {
    const store = await make();
    const now = Date.now();
    await store.setCooldown('c', now + 60_000, now);
    expect(await store.cooldownUntil('c', now)).toBe(now + 60_000);
    expect(await store.cooldownUntil('c', now + 60_000)).toBe(0);
    await store.met('x|y', now - MEETINGS_WINDOW_MS);
    await store.met('x|y', now - 1000);
    await store.met('x|y', now);
    expect(await store.meetings(['x|y', 'x|z'], now)).toEqual(
      new Map([
        ['x|y', 2],
        ['x|z', 0],
      ]),
    );
  });
});

describeRedis('the queue store in Redis, across nodes', () => {
  it('is one queue for every node, and one node at a time leads; another takes over when its lease lapses', async () => {
    const cluster = redisCluster();
    clusters.push(cluster);
    const a = await cluster.store('node-a');
    const b = await cluster.store('node-b');
    await a.put(entry('on-a', 'node-a'), 1);
    await b.put(entry('on-b', 'node-b'), 2);
    expect((await a.snapshot()).entries.map((e) => e.userId).sort()).toEqual(['on-a', 'on-b']);
    expect(await b.count()).toBe(2);

    expect(await a.lead()).toBe(true);
    expect(await b.lead()).toBe(false);
    expect(await a.lead()).toBe(true);
    // node-a stops renewing (it died): node-b leads once the lease has run out, and not before.
    await sleep(MATCHER_LEASE_MS / 2);
    expect(await b.lead()).toBe(false);
    await sleep(MATCHER_LEASE_MS / 2 + 200);
    expect(await b.lead()).toBe(true);
    expect(await a.lead()).toBe(false);
    // A node that stops hands the lease over at once.
    await b.close();
    expect(await a.lead()).toBe(true);
  });

  it('seats a person once when two matchers take tables with them at the same moment', async () => {
    const cluster = redisCluster();
    clusters.push(cluster);
    const a = await cluster.store('node-a');
    const b = await cluster.store('node-b');
    for (let round = 0; round < 20; round += 1) {
      for (const id of ['p', 'q', 'r']) await a.put(entry(`${id}${round}`), round);
      const taken = await Promise.all([a.take([`p${round}`, `q${round}`]), b.take([`p${round}`, `r${round}`])]);
      expect(taken.filter(Boolean)).toHaveLength(1);
    }
  });

  it('drops the entries of a node that stopped beating, and keeps those that queued again elsewhere', async () => {
    const cluster = redisCluster();
    clusters.push(cluster);
    const ttlMs = 1000;
    const a = await cluster.store('node-a', ttlMs);
    const b = await cluster.store('node-b', ttlMs, false);
    await a.put(entry('stays', 'node-a'), 1);
    await b.put(entry('gone', 'node-b'), 2);
    await b.put(entry('moved', 'node-b'), 3);
    // node-b is still within its last beat's TTL: its people are searching.
    expect((await a.snapshot()).entries).toHaveLength(3);
    // One page reconnected to node-a and queued again: the wait is kept and the entry names node-a.
    expect(await a.put(entry('moved', 'node-a'), 4)).toBe(3);
    await sleep(ttlMs + 200);
    const { entries } = await a.snapshot();
    expect(entries.map((e) => [e.userId, e.node, e.since]).sort()).toEqual([
      ['moved', 'node-a', 3],
      ['stays', 'node-a', 1],
    ]);
    expect(await a.count()).toBe(2);
  });
});
