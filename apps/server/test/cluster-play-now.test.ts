/**
 * Play now in cluster mode: two server processes on one PostgreSQL database and the
 * shared Redis, one queue for both. Two people on two nodes are seated together, and an early leave
 * on one node holds the queue back on the other; a user is never in
 * the queue and in an unfinished game at once, whatever their tabs on either node do at the same
 * moment; and a node that dies with people queued (the matcher itself) leaves nobody stuck: the
 * other node takes the matcher's lease, the people whose pages come back through it keep their wait
 * and are seated, and the entries of those who do not come back are dropped.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NODE_TTL_MS } from '../src/cluster/nodes.ts';
import { MATCHER_LEASE_MS } from '../src/matchmaking/redis-store.ts';
import { call } from './helpers/boot.ts';
import { type Cluster, clusterSkipReason, connectTo, register, startCluster } from './helpers/cluster.ts';
import type { Client } from './helpers/sockets.ts';

const skip = clusterSkipReason({ front: false });

describe.skipIf(skip !== null)('Play now across a cluster', () => {
  let cluster: Cluster;
  let redis: Redis;
  let prefix: string;
  const clients: Client[] = [];
  beforeAll(async () => {
    cluster = await startCluster({ nodes: 2, front: false });
    redis = new Redis(cluster.redisUrl);
    prefix = `ms:${new URL(cluster.databaseUrl).pathname.slice(1)}:mm:`;
  }, 120_000);
  afterAll(async () => {
    for (const client of clients) client.close();
    redis?.disconnect();
    await cluster?.close();
  });

  /** A new account with a socket on node `index`. */
  async function person(index: number, name: string) {
    const { token, userId } = await register(cluster.url(index), name);
    const client = await connectTo(cluster.url(index), token);
    clients.push(client);
    return { token, userId, client };
  }

  const queued = async (userId: string) => (await redis.hexists(`${prefix}queue`, userId)) === 1;
  const unfinishedGames = async (index: number, token: string) =>
    (await call(cluster.url(index), 'GET', '/game/my-games', { token })).body.data.games as { gameId: string }[];

  it('seats two people who press Play now on two nodes in one game; an early leave on one node holds the queue back on the other', async () => {
    const a = await person(0, 'qa');
    const b = await person(1, 'qb');
    expect((await a.client.emit('joinQueue', { size: 2 })).success).toBe(true);
    expect((await b.client.emit('joinQueue', { size: 'any' })).success).toBe(true);
    const [foundA, foundB] = await Promise.all([a.client.waitFor('matchFound'), b.client.waitFor('matchFound')]);
    expect(foundA).toEqual(foundB);
    expect(foundA).toMatchObject({ people: 2, bots: 0 });
    const game = (await call(cluster.url(1), 'GET', `/game/${foundA.gameId}`, { token: b.token })).body.data.game;
    expect(game.players.map((p: { userId: string }) => p.userId).sort()).toEqual([a.userId, b.userId].sort());
    expect(await queued(a.userId)).toBe(false);
    expect(await queued(b.userId)).toBe(false);
    // Leaving right after the start on one node: the queue on the other node waits for this player too.
    await a.client.waitFor('handDealt');
    expect((await a.client.emit('leaveGame', {})).success).toBe(true);
    const elsewhere = await connectTo(cluster.url(1), a.token);
    clients.push(elsewhere);
    expect(await elsewhere.emit('joinQueue', { size: 2 })).toMatchObject({ success: false, code: 'QUEUE_COOLDOWN' });
  }, 60_000);

  it('never leaves a user in the queue and in an unfinished game at once, whatever tabs on two nodes do at once', async () => {
    const me = await person(0, 'tabs');
    const otherTab = await connectTo(cluster.url(1), me.token);
    clients.push(otherTab);
    const host = await person(1, 'host');
    for (let round = 0; round < 6; round += 1) {
      // Half the rounds create a lobby on the other node, half join someone's lobby there.
      let seat: Promise<{ success: boolean }>;
      if (round % 2 === 0) seat = otherTab.emit('createGame', { maxPlayers: 3 });
      else {
        const lobby = await host.client.emit('createGame', { maxPlayers: 3 });
        seat = otherTab.emit('joinGame', { roomCode: lobby.data.roomCode });
      }
      const [joinedQueue, tookSeat] = await Promise.all([me.client.emit('joinQueue', { size: 3 }), seat]);
      expect(joinedQueue.success || tookSeat.success).toBe(true);
      // Whichever came last won: the seat (the queue left, or the join refused) or the queue (the
      // lobby left for it). Never both, never neither.
      await expect
        .poll(
          async () => {
            const inQueue = await queued(me.userId);
            const games = (await unfinishedGames(round % 2, me.token)).length;
            return { both: inQueue && games > 0, either: inQueue || games > 0, atMostOneGame: games <= 1 };
          },
          { timeout: 5000 },
        )
        .toEqual({ both: false, either: true, atMostOneGame: true });
      await me.client.emit('leaveQueue', {});
      await me.client.emit('leaveGame', {});
      await host.client.emit('leaveGame', {});
    }
    // A game in play refuses the queue on either node.
    const bot = await otherTab.emit('create-bot-game', { numberOfBots: 1, botDifficulty: 'easy', autoStart: true });
    expect(bot.success).toBe(true);
    await otherTab.waitFor('handDealt', () => true);
    expect(await me.client.emit('joinQueue', { size: 2 })).toMatchObject({ success: false, code: 'ALREADY_IN_GAME' });
    expect(await queued(me.userId)).toBe(false);
    await otherTab.emit('leaveGame', {});
  }, 120_000);

  it('a matcher that dies leaves nobody stuck: its people come back through the other node, keep their wait and are seated', async () => {
    // Whoever holds the matcher's lease dies, with two people queued through it.
    const lead = await redis.get(`${prefix}matcher`);
    const dying = cluster.nodes.findIndex((n) => n.id === lead);
    expect(dying).toBeGreaterThanOrEqual(0);
    const living = 1 - dying;
    const back = await person(dying, 'back');
    const ghost = await person(dying, 'ghost');
    expect((await back.client.emit('joinQueue', { size: 2 })).success).toBe(true);
    // The ghost wants a table of four, which nobody else here does: it waits on alone.
    expect((await ghost.client.emit('joinQueue', { size: 4 })).success).toBe(true);
    const queuedAt = Date.now();
    expect(await cluster.kill(dying, 'SIGKILL')).toBeNull();

    // The page reconnects to the other node and queues again, keeping its wait.
    const again = await connectTo(cluster.url(living), back.token);
    clients.push(again);
    const requeued = await again.emit('joinQueue', { size: 2 });
    expect(requeued.success).toBe(true);
    expect(requeued.data.waitedMs).toBeGreaterThanOrEqual(Date.now() - queuedAt - 1000);
    // Someone else on that node: the two are seated once the other node leads (the lease ran out).
    const other = await person(living, 'other');
    const killedAt = Date.now();
    expect((await other.client.emit('joinQueue', { size: 2 })).success).toBe(true);
    const [found, foundOther] = await Promise.all([again.waitFor('matchFound'), other.client.waitFor('matchFound')]);
    expect(found).toEqual(foundOther);
    expect(Date.now() - killedAt).toBeLessThan(MATCHER_LEASE_MS + 3000);
    expect(await redis.get(`${prefix}matcher`)).toBe(cluster.nodes[living]?.id);
    // The ghost never came back: its entry goes once its node is past the registry's TTL.
    await expect.poll(() => queued(ghost.userId), { timeout: NODE_TTL_MS + 5000, interval: 500 }).toBe(false);
  }, 120_000);
});
