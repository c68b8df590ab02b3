/**
 * The counts that limit or report users, in process and across nodes in Redis —
 * token-bucket budgets, who is online, sockets per address. Two ClusterRedis on one prefix are two
 * nodes; a node whose command connection is cut without closing its counts is a SIGKILLed one.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryAddressCaps } from '../src/cluster/address-caps.ts';
import { RedisTokenBuckets } from '../src/cluster/budgets.ts';
import { type Counts, redisCounts } from '../src/cluster/counts.ts';
import { MemoryPresence } from '../src/cluster/presence.ts';
import type { ClusterRedis } from '../src/cluster/redis.ts';
import type { NodeTiming } from '../src/cluster/nodes.ts';
import { clusterName, describeRedis, node, unreachableNode } from './helpers/redis.ts';

/** Short enough for a test, long enough for a busy 2-core machine not to miss a beat. */
const TIMING: NodeTiming = { ttlMs: 1500, heartbeatMs: 100, waitMs: 1000 };
/** Redis away: every call must answer well within this. */
const BOUNDED_MS = 1000;

const opened: { cluster: ClusterRedis; counts?: Counts }[] = [];
afterEach(async () => {
  for (const { cluster, counts } of opened.splice(0)) {
    await counts?.close();
    await cluster.close();
  }
});

/** Node `nodeId` of cluster `name`, with its counts. */
async function countsOn(
  name: string,
  nodeId: string,
  timing: NodeTiming = TIMING,
): Promise<{ cluster: ClusterRedis; counts: Counts }> {
  const cluster = await node(name);
  const counts = redisCounts(cluster, nodeId, timing);
  opened.push({ cluster, counts });
  return { cluster, counts };
}

const online = async (counts: Counts) => [...(await counts.presence.onlineUserIds())].sort();

async function timed<T>(task: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await task();
  return { value, ms: performance.now() - started };
}

describe('memory counts (no REDIS_URL: as before)', () => {
  it('presence: a user is online while any of their sockets is open, counted once', async () => {
    const presence = new MemoryPresence();
    presence.connected('a');
    presence.connected('a');
    presence.connected('b');
    expect([...(await presence.onlineUserIds())].sort()).toEqual(['a', 'b']);
    presence.disconnected('a');
    presence.disconnected('b');
    expect([...(await presence.onlineUserIds())]).toEqual(['a']);
    presence.disconnected('a');
    expect((await presence.onlineUserIds()).size).toBe(0);
  });

  it('address caps: `limit` places per address, given back on release, synchronously', () => {
    const caps = new MemoryAddressCaps();
    expect([caps.hold('1.1.1.1', 2), caps.hold('1.1.1.1', 2), caps.hold('1.1.1.1', 2)]).toEqual([true, true, false]);
    expect(caps.hold('2.2.2.2', 2)).toBe(true);
    caps.release('1.1.1.1');
    expect(caps.hold('1.1.1.1', 2)).toBe(true);
    expect(caps.hold('1.1.1.1', 2)).toBe(false);
  });
});

describeRedis('Redis token buckets', () => {
  const buckets = async (name: string, capacity: number, perSecond: number) => {
    const cluster = await node(name);
    opened.push({ cluster });
    return {
      cluster,
      store: new RedisTokenBuckets(cluster.commands, cluster.key('budget', ''), { capacity, perSecond, waitMs: 1000 }),
    };
  };

  it('gives a burst of `capacity`, then refills at `perSecond`, never above capacity (as in memory)', async () => {
    const { store } = await buckets(clusterName(), 3, 2);
    const takes = async (n: number, at: number) => {
      const taken: boolean[] = [];
      for (let i = 0; i < n; i += 1) taken.push(await store.take('u', at));
      return taken;
    };
    expect(await takes(4, 0)).toEqual([true, true, true, false]);
    expect(await takes(2, 499)).toEqual([false, false]);
    expect(await takes(2, 500)).toEqual([true, false]);
    expect(await takes(4, 60_000)).toEqual([true, true, true, false]);
    expect(await store.take('other', 60_000)).toBe(true);
  });

  it('two nodes share one bucket per key', async () => {
    const name = clusterName();
    const [a, b] = [(await buckets(name, 3, 1)).store, (await buckets(name, 3, 1)).store];
    expect([await a.take('u', 1000), await b.take('u', 1000), await a.take('u', 1000)]).toEqual([true, true, true]);
    expect([await b.take('u', 1000), await a.take('u', 1000)]).toEqual([false, false]);
    // A second later each has earned back one token between them, not one each.
    expect([await b.take('u', 2000), await a.take('u', 2000)]).toEqual([true, false]);
  });

  it('a bucket is kept under the prefix and expires when it would be full again', async () => {
    const { cluster, store } = await buckets(clusterName(), 4, 2);
    await store.take('u', 0);
    await store.take('u', 0);
    const ttl = await cluster.commands.pttl(cluster.key('budget', 'u'));
    // Two tokens at two a second: full again in a second.
    expect(ttl).toBeGreaterThan(500);
    expect(ttl).toBeLessThanOrEqual(1000);
  });

  it('Redis unreachable: answers at once from a count in process (fails open, still bounded)', async () => {
    const cluster = await unreachableNode();
    opened.push({ cluster });
    const store = new RedisTokenBuckets(cluster.commands, cluster.key('budget', ''), {
      capacity: 2,
      perSecond: 1,
      waitMs: 1000,
    });
    const { value, ms } = await timed(async () => [
      await store.take('u', 0),
      await store.take('u', 0),
      await store.take('u', 0),
    ]);
    expect(value).toEqual([true, true, false]);
    expect(ms).toBeLessThan(BOUNDED_MS);
  });
});

describeRedis('Redis presence', () => {
  it('is the union of the users of every live node, each once', async () => {
    const name = clusterName();
    const [a, b] = [(await countsOn(name, 'a')).counts, (await countsOn(name, 'b')).counts];
    a.presence.connected('u1');
    a.presence.connected('u2');
    b.presence.connected('u2');
    b.presence.connected('u3');
    await expect.poll(() => online(a)).toEqual(['u1', 'u2', 'u3']);
    expect(await online(b)).toEqual(['u1', 'u2', 'u3']);
    // u2 still has a socket on b; u1 had its only one on a.
    a.presence.disconnected('u2');
    a.presence.disconnected('u1');
    await expect.poll(() => online(b)).toEqual(['u2', 'u3']);
  });

  it('a node that stops beating (SIGKILL) drops out after its TTL; one that closes drops out at once', async () => {
    const name = clusterName();
    const a = await countsOn(name, 'a');
    const b = await countsOn(name, 'b');
    const c = await countsOn(name, 'c');
    b.counts.presence.connected('on-b');
    c.counts.presence.connected('on-c');
    await expect.poll(() => online(a.counts)).toEqual(['on-b', 'on-c']);
    const killed = performance.now();
    b.cluster.commands.disconnect();
    expect(await online(a.counts)).toContain('on-b');
    await expect.poll(() => online(a.counts), { timeout: 3 * TIMING.ttlMs }).toEqual(['on-c']);
    expect(performance.now() - killed).toBeGreaterThan(TIMING.ttlMs / 2);
    // c's hash outlived its first TTL because c's heartbeat renews it.
    expect(await c.cluster.commands.pttl(c.cluster.key('counts', 'online', 'c'))).toBeGreaterThan(
      TIMING.ttlMs - 5 * TIMING.heartbeatMs,
    );
    await c.counts.close();
    expect(await online(a.counts)).toEqual([]);
  });

  it('a node whose hash was lost (Redis restarted empty) writes it again at its next beat', async () => {
    const name = clusterName();
    const { cluster, counts } = await countsOn(name, 'a');
    counts.presence.connected('u');
    await expect.poll(() => online(counts)).toEqual(['u']);
    expect(await cluster.commands.del(cluster.key('counts', 'online', 'a'))).toBe(1);
    await expect.poll(() => online(counts)).toEqual(['u']);
  });

  it('Redis unreachable: this node’s own users, in bounded time', async () => {
    const cluster = await unreachableNode();
    const counts = redisCounts(cluster, 'alone', TIMING);
    opened.push({ cluster, counts });
    counts.presence.connected('u');
    const { value, ms } = await timed(() => online(counts));
    expect(value).toEqual(['u']);
    expect(ms).toBeLessThan(BOUNDED_MS);
  });
});

describeRedis('Redis sockets per address', () => {
  it('the cap counts the address on every node; a release anywhere frees a place', async () => {
    const name = clusterName();
    const [a, b] = [(await countsOn(name, 'a')).counts, (await countsOn(name, 'b')).counts];
    expect([await a.addresses.hold('ip', 3), await b.addresses.hold('ip', 3), await a.addresses.hold('ip', 3)]).toEqual(
      [true, true, true],
    );
    expect([await b.addresses.hold('ip', 3), await a.addresses.hold('ip', 3)]).toEqual([false, false]);
    expect(await a.addresses.hold('other', 3)).toBe(true);
    b.addresses.release('ip');
    await expect.poll(() => a.addresses.hold('ip', 3)).toBe(true);
    expect(await b.addresses.hold('ip', 3)).toBe(false);
  });

  it('the places of a node that died are given back after its TTL', async () => {
    // A TTL long enough that a's first look comes before it runs out on a loaded machine (margin: 5 s
    // from b's last heartbeat; at 1.5 s a run beside another full test run once looked too late).
    const timing: NodeTiming = { ...TIMING, ttlMs: 5000 };
    const name = clusterName();
    const a = await countsOn(name, 'a', timing);
    const b = await countsOn(name, 'b', timing);
    expect([await b.counts.addresses.hold('ip', 2), await b.counts.addresses.hold('ip', 2)]).toEqual([true, true]);
    b.cluster.commands.disconnect();
    expect(await a.counts.addresses.hold('ip', 2)).toBe(false);
    await expect.poll(() => a.counts.addresses.hold('ip', 2), { timeout: 3 * timing.ttlMs }).toBe(true);
  });

  it('Redis unreachable: each node admits by its own count, in bounded time', async () => {
    const cluster = await unreachableNode();
    const counts = redisCounts(cluster, 'alone', TIMING);
    opened.push({ cluster, counts });
    const { value, ms } = await timed(async () => [
      await counts.addresses.hold('ip', 2),
      await counts.addresses.hold('ip', 2),
      await counts.addresses.hold('ip', 2),
    ]);
    expect(value).toEqual([true, true, false]);
    expect(ms).toBeLessThan(BOUNDED_MS);
    counts.addresses.release('ip');
    expect(await counts.addresses.hold('ip', 2)).toBe(true);
  });
});
