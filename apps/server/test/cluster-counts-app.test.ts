/**
 * Cluster-wide counts through the real gateway and routes: two servers on one PostgreSQL database and
 * one Redis prefix (two nodes of a cluster, each with its redisCounts) count a user's events, an
 * address's sockets and who is online together, whichever node a socket is on.
 */
import { randomBytes } from 'node:crypto';
import { ABUSE_LIMITS, LOBBY_TEXTS, SERVER_TEXTS } from '@memeslam/protocol';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { redisCounts } from '../src/cluster/counts.ts';
import type { ClusterRedis } from '../src/cluster/redis.ts';
import { type Booted, boot, call, scratchPostgres } from './helpers/boot.ts';
import { range } from './helpers/pool.ts';
import { describeRedis, node } from './helpers/redis.ts';
import { type Client, connect } from './helpers/sockets.ts';

describeRedis('two nodes count together (RATE_LIMITS on)', () => {
  let database: Awaited<ReturnType<typeof scratchPostgres>>;
  const clusters: ClusterRedis[] = [];
  const servers: Booted[] = [];
  const open: Client[] = [];
  /** Guest tokens (the HTTP limit is cluster-wide too: 10 an hour for this address in all). */
  const tokens: string[] = [];

  beforeAll(async () => {
    database = await scratchPostgres();
    const env = { DATABASE_URL: database.url, JWT_SECRET: randomBytes(32).toString('hex'), RATE_LIMITS: 'on' };
    for (const nodeId of ['a', 'b']) {
      const cluster = await node(database.url);
      clusters.push(cluster);
      servers.push(await boot('embedded', env, { counts: redisCounts(cluster, nodeId) }));
    }
    for (const _ of range(7)) {
      const res = await call((servers[0] as Booted).base, 'POST', '/auth/demo');
      expect(res.status).toBe(201);
      tokens.push(res.body.data.token as string);
    }
  });
  afterAll(async () => {
    for (const client of open.splice(0)) client.close();
    for (const server of servers) await server.close();
    for (const cluster of clusters) await cluster.close();
    await database?.drop();
  });

  const [a, b] = [() => (servers[0] as Booted).base, () => (servers[1] as Booted).base];
  const keep = (client: Client) => {
    open.push(client);
    return client;
  };
  const online = async (base: string) =>
    (await call(base, 'GET', '/auth/leaderboard')).body.data.stats.totalPlayersOnline as number;

  it('players online: a user with a socket on either node is counted once, on both', async () => {
    const onA = keep(await connect(a(), tokens[0] as string));
    const onB = keep(await connect(b(), tokens[0] as string));
    const otherOnB = keep(await connect(b(), tokens[1] as string));
    await vi.waitFor(async () => expect([await online(a()), await online(b())]).toEqual([2, 2]));
    onA.close();
    otherOnB.close();
    await vi.waitFor(async () => expect([await online(a()), await online(b())]).toEqual([1, 1]));
    onB.close();
    await vi.waitFor(async () => expect(await online(a())).toBe(0));
  });

  it('one event budget per user across nodes: sockets on two nodes give no more events', async () => {
    const clients = [];
    for (const base of [a(), b(), a(), b()]) clients.push(keep(await connect(base, tokens[2] as string)));
    // 15 each: every socket, and each node's share, stays under the burst; the user does not.
    const answers = (
      await Promise.all(clients.map((c) => Promise.all(range(15).map(() => c.emit('getPowerUpStatus', {})))))
    ).flat();
    const handled = answers.filter((r) => r.error === LOBBY_TEXTS.notInGame).length;
    const refused = answers.filter((r) => r.error === LOBBY_TEXTS.tooManyEvents).length;
    expect(handled + refused).toBe(60);
    expect(handled).toBeGreaterThanOrEqual(ABUSE_LIMITS.userEventBurst);
    expect(handled).toBeLessThan(ABUSE_LIMITS.userEventBurst + 15);
    for (const client of clients) client.close();
  });

  it(`sockets per IP: ${ABUSE_LIMITS.socketsPerIp} across both nodes, one more is refused on either`, async () => {
    const perUser = ABUSE_LIMITS.socketsPerUser;
    const clients: Client[] = [];
    // Each user fills its places on both nodes (the per-user cap is per node). The earlier tests'
    // sockets may still be on their way out: a connect waits for its place.
    for (let i = 0; i < ABUSE_LIMITS.socketsPerIp; i += 1) {
      const token = tokens[Math.floor(i / (2 * perUser))] as string;
      const base = i % 2 === 0 ? a() : b();
      clients.push(await vi.waitFor(async () => keep(await connect(base, token)), { timeout: 10_000, interval: 50 }));
    }
    const last = tokens[6] as string;
    for (const base of [a(), b()]) {
      await expect(connect(base, last)).rejects.toThrow(SERVER_TEXTS.tooManyConnections);
    }
    (clients[0] as Client).close();
    await vi.waitFor(async () => keep(await connect(b(), last)), { timeout: 10_000, interval: 100 });
  });
});
