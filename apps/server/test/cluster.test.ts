/**
 * Cluster mode: nodes as real processes on loopback ports behind nginx (deploy/nginx.conf), one
 * PostgreSQL database and a Redis of the file's own (which a test stops); one cluster of three nodes
 * for all the tests, in order: players on different nodes share one game and a spectator watches from
 * a third; a game's broadcasts reach only the nodes holding its sockets (a Redis client of the test's
 * hears its channels); every node is restarted in turn during play; an owner is paused past its lease;
 * Redis goes away for 20 s mid-game; the owner of a game is killed mid-game and another node finishes
 * it from the log with every acknowledged play kept and one record (last: the node it kills stays
 * down). What needs
 * no real process (a starting node takes none of a live node's games, the user's turn, lease loss) is
 * unit-tested on a manual clock in ownership.test.ts.
 */
import { SERVER_TEXTS } from '@memeslam/protocol';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call } from './helpers/boot.ts';
import {
  type Cluster,
  type OwnRedis,
  clientAddressFor,
  clusterSkipReason,
  connectTo,
  gameLine,
  register,
  startCluster,
  startRedis,
} from './helpers/cluster.ts';
import { type Client, firstPlayWithin, playCards, playOne } from './helpers/sockets.ts';

const skip = clusterSkipReason({ front: true, ownRedis: true, sharedRedis: false });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * The file's one cluster: three nodes behind nginx on a Redis of its own, and a client of its database.
 * A cluster costs seconds of both cores to start (each node loads the server's modules, the database
 * is made and migrated), so the tests share it in their order, each with accounts of its own, and each
 * begins with every node up: a node the test before killed would be started again (same port and
 * NODE_ID, where nginx still points).
 */
function sharedCluster(): () => { cluster: Cluster; db: pg.Client; redis: OwnRedis } {
  let redis: OwnRedis | undefined;
  let cluster: Cluster | undefined;
  let db: pg.Client | undefined;
  beforeAll(async () => {
    redis = await startRedis();
    cluster = await startCluster({ nodes: 3, front: true, redis });
    db = new pg.Client({ connectionString: cluster.databaseUrl });
    await db.connect();
  }, 120_000);
  beforeEach(() => cluster?.startStopped(), 120_000);
  afterAll(async () => {
    await db?.end();
    await cluster?.close();
    await redis?.close();
  });
  return () => {
    if (!cluster || !db || !redis) throw new Error('the cluster did not start');
    return { cluster, db, redis };
  };
}

/** A new account signed in on `base` with a socket there. */
async function player(base: string, name: string, from?: string) {
  const { token, userId } = await register(base, name);
  const client = await connectTo(base, token, from ? { from } : {});
  cleanups.push(() => client.close());
  return { token, userId, client };
}

/** A game against one easy bot, started at once, created through `client` (whose node owns it). */
async function botGame(client: Client, speed: 'blitz' | 'normal', cardsPerPlayer: 20 | 40) {
  const created = await client.emit('create-bot-game', {
    numberOfBots: 1,
    botDifficulty: 'easy',
    gameSpeed: speed,
    autoStart: true,
    cardsPerPlayer,
  });
  expect(created.success).toBe(true);
  return created.data as { gameId: string; roomCode: string };
}

/** Plays matching cards for each client until every one of them has seen the game end. */
async function playToTheEnd(clients: Client[], played: string[], deadlineMs = 120_000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (!clients.every((c) => c.all('gameEnded').length > 0)) {
    if (Date.now() > deadline) throw new Error('the game did not end in time');
    let any = false;
    for (const client of clients) {
      if (client.all('gameEnded').length > 0) continue;
      const card = await playOne(client);
      if (card) {
        played.push(card);
        any = true;
      }
    }
    if (!any) await sleep(100);
  }
}

async function health(base: string): Promise<{ degraded?: boolean; redis?: string }> {
  return (await fetch(`${base}/health`)).json() as Promise<{ degraded?: boolean; redis?: string }>;
}

async function records(db: pg.Client, gameId: string) {
  const game = await db.query('select status, end_reason, winner_id, owner_epoch from games where id = $1', [gameId]);
  const seats = await db.query('select player_id from game_players where game_id = $1', [gameId]);
  const replay = await db.query('select commands from replays where game_id = $1', [gameId]);
  return { game: game.rows[0], seats: seats.rows.length, replays: replay.rows as { commands: unknown[] }[] };
}

/** The game is recorded, once, and its replay holds every play that was acknowledged. */
async function expectRecordedOnce(db: pg.Client, gameId: string, played: readonly string[]) {
  await expect.poll(async () => (await records(db, gameId)).game.status, { timeout: 10_000 }).toBe('finished');
  const recorded = await records(db, gameId);
  expect(recorded.replays).toHaveLength(1);
  const commands = recorded.replays[0]?.commands as { command: { type: string; cardId?: string } }[];
  const replayed = new Set(commands.filter((c) => c.command.type === 'playCard').map((c) => c.command.cardId));
  for (const card of played) expect(replayed.has(card)).toBe(true);
  return recorded;
}

describe.skipIf(skip !== null)('cluster mode', () => {
  const three = sharedCluster();

  describe('three nodes: play across nodes, one game per user', () => {
    it('two players on different nodes play one game to the end; a spectator on a third node sees it', async () => {
      const { cluster: c, db } = three();
      const front = c.front?.url as string;
      // The host is on node 1; the guest and the spectator come through nginx, landing on nodes 2 and 3.
      const host = await player(c.url(0), 'host');
      const guest = await player(front, 'guest', await clientAddressFor(c, 1));
      const watcher = await player(front, 'watcher', await clientAddressFor(c, 2));

      const created = await host.client.emit('createGame', { maxPlayers: 2, gameSpeed: 'blitz', cardsPerPlayer: 20 });
      expect(created.success).toBe(true);
      const { roomCode, gameId } = created.data;
      // The lobby is found and joined from another node; the host hears of it through the fan-out.
      const joined = await guest.client.emit('joinGame', { roomCode });
      expect(joined).toMatchObject({ success: true, data: { gameId, roomCode } });
      await host.client.waitFor('playerJoined', (p) => p.player.userId === guest.userId);
      // Any node shows the lobby: by id, and in the list of live games (every node's).
      const seen = await call(c.url(2), 'GET', `/game/${gameId}`, { token: watcher.token });
      expect(seen.body.data.game.players).toHaveLength(2);
      const listed = await call(c.url(2), 'GET', '/game/active', { token: watcher.token });
      expect(listed.body.data.games.map((g: { gameId: string }) => g.gameId)).toContain(gameId);
      expect(listed.body.data.summary.humanGames).toBe(1);

      expect((await guest.client.emit('setPlayerReady', { isReady: true })).success).toBe(true);
      expect((await host.client.emit('setPlayerReady', { isReady: true })).success).toBe(true);
      expect(await host.client.emit('startGame', {})).toMatchObject({ success: true });
      await guest.client.waitFor('gameStarted');
      await guest.client.waitFor('handDealt');

      const watching = await watcher.client.emit('joinGame', { roomCode });
      expect(watching.data.game.status).toBe('active');
      const played: string[] = [];
      await playToTheEnd([host.client, guest.client], played);
      const ended = await watcher.client.waitFor('gameEnded');
      expect(watcher.client.all('cardPlayed').length).toBeGreaterThan(0);
      expect(watcher.client.all('handUpdated')).toEqual([]);

      const recorded = await expectRecordedOnce(db, gameId, played);
      expect(recorded.seats).toBe(2);
      expect([host.userId, guest.userId]).toContain(recorded.game.winner_id);
      expect(ended.seed).toMatch(/^[0-9a-f]{32}$/);
    }, 180_000);

    it('one unfinished game per user across nodes: two tabs on two nodes creating at once leave them in one game', async () => {
      const { cluster: c, db } = three();
      const me = await player(c.url(0), 'twotabs');
      const other = await connectTo(c.url(1), me.token);
      cleanups.push(() => other.close());
      const [a, b] = await Promise.all([me.client.emit('createGame', {}), other.emit('createGame', {})]);
      expect(a.success && b.success).toBe(true);
      const mine = await call(c.url(1), 'GET', '/game/my-games', { token: me.token });
      expect(mine.body.data.games).toHaveLength(1);
      const kept = mine.body.data.games[0].gameId as string;
      expect([a.data.gameId, b.data.gameId]).toContain(kept);
      // The other lobby was left for the new one: it has no human left and is closed.
      const left = a.data.gameId === kept ? b.data.gameId : a.data.gameId;
      await expect.poll(async () => (await records(db, left)).game.status, { timeout: 10_000 }).toBe('finished');
      // The lobby kept is left too: the SIGKILL test below takes its bound with nothing else on the node
      // it kills.
      expect((await me.client.emit('leaveGame', {})).success).toBe(true);
    }, 60_000);
  });

  describe('three nodes: a node hears only its rooms', () => {
    it("a game's broadcasts go on its own sharded channel, which only the nodes holding its sockets subscribe to", async () => {
      const { cluster: c, redis } = three();
      // socket.io's channels (cluster/socket-adapter.ts): the namespace's, and one per room.
      const io = `ms:${decodeURIComponent(new URL(c.databaseUrl).pathname.slice(1))}:io#/#`;
      const me = await player(c.url(0), 'local');
      // Nodes 2 and 3 have sockets of their own, in no room of this game.
      await player(c.url(1), 'elsewhere');
      await player(c.url(2), 'elsewhere');
      const { gameId } = await botGame(me.client, 'blitz', 20);
      await me.client.waitFor('gameStarted');
      const room = `${io}game:${gameId}#`;

      // A probe hears the game's channel and the namespace's, as a node subscribed to them would.
      const probe = new Redis(redis.url);
      const ask = new Redis(redis.url);
      cleanups.push(
        () => void probe.disconnect(),
        () => void ask.disconnect(),
      );
      const heard: { channel: string; type: number; rooms: string[]; cardId?: string }[] = [];
      probe.on('smessageBuffer', (channel: Buffer, raw: Buffer) => {
        const message = JSON.parse(raw.toString()) as {
          type: number;
          data: { opts?: { rooms: string[] }; packet?: { data: [string, { cardId?: string }] } };
        };
        heard.push({
          channel: channel.toString(),
          type: message.type,
          rooms: message.data.opts?.rooms ?? [],
          cardId: message.data.packet?.data[1]?.cardId,
        });
      });
      await probe.ssubscribe(room, io);
      const subscribers = async () => Number(((await ask.call('PUBSUB', 'SHARDNUMSUB', room)) as [string, number])[1]);
      // Node 1 (the owner, whose socket plays) and the probe; nodes 2 and 3 do not subscribe.
      await expect.poll(subscribers).toBe(2);

      const played: string[] = [];
      await playCards(me.client, 3, played);
      // Each acknowledged play's broadcast comes on the game's channel (the owner published it there)...
      await expect
        .poll(() => played.every((id) => heard.some((h) => h.channel === room && h.cardId === id)))
        .toBe(true);
      // ...and no broadcast to the game's room on the namespace's channel (the probe hears one
      // publisher's messages in order: by now it would have heard any sent before the last play's).
      const broadcastsToRoom = (channel: string) =>
        heard.filter((h) => h.channel === channel && h.type === 3 && h.rooms.includes(`game:${gameId}`));
      expect(broadcastsToRoom(io)).toEqual([]);
      expect(broadcastsToRoom(room).length).toBeGreaterThanOrEqual(played.length);
      expect(await subscribers()).toBe(2);

      // A second tab of the player on node 3 joins the game's room there: node 3 subscribes while it is open.
      const tab = await connectTo(c.url(2), me.token);
      cleanups.push(() => tab.close());
      expect((await tab.waitFor('gameRejoined')).game.gameId).toBe(gameId);
      await expect.poll(subscribers).toBe(3);
      tab.close();
      await expect.poll(subscribers).toBe(2);
      // The game is given up: the SIGKILL test below takes its bound with nothing else on node 1.
      expect((await me.client.emit('leaveGame', {})).success).toBe(true);
    }, 60_000);
  });

  describe('three nodes: a rolling restart, then an owner paused past its lease', () => {
    it('a rolling restart of every node during play: each hands its games over on SIGTERM and the game goes on', async () => {
      const { cluster: c, db } = three();
      const me = await player(c.url(0), 'roller');
      const { gameId } = await botGame(me.client, 'normal', 40);
      await me.client.waitFor('gameStarted');
      const played: string[] = [];
      await playCards(me.client, 2, played);
      let client = me.client;
      for (let i = 0; i < 3; i += 1) {
        expect(await c.kill(i, 'SIGTERM')).toBe(0);
        // The player's socket was on the stopped node: it comes back through the next one.
        client.close();
        client = await connectTo(c.url((i + 1) % 3), me.token);
        cleanups.push(() => client.close());
        const rejoined = await client.waitFor('gameRejoined');
        expect(rejoined.game.gameId).toBe(gameId);
        const hand = new Set((rejoined.hand as { id: string }[]).map((c) => c.id));
        for (const card of played) expect(hand.has(card)).toBe(false);
        await playCards(client, 2, played);
        await c.restart(i);
      }
      await playToTheEnd([client], played, 240_000);
      await expectRecordedOnce(db, gameId, played);
    }, 360_000);

    it('an owner paused past its lease (SIGSTOP) comes back fenced: it stops running the game, which ends once on the new owner', async () => {
      const { cluster: c, db } = three();
      const me = await player(c.url(1), 'patient');
      const owner = await connectTo(c.url(0), me.token);
      cleanups.push(() => owner.close());
      const { gameId } = await botGame(owner, 'blitz', 20);
      await me.client.waitFor('gameStarted');
      const played: string[] = [];
      await playCards(me.client, 2, played);
      c.pause(0, true);
      // Node 2 takes the game over once node 1's lease runs out (a play forwarded to the paused node
      // first waits out its request timeout); plays go on there.
      const next = await firstPlayWithin(me.client, 15_000);
      expect(next).not.toBeNull();
      played.push(next as string);
      c.pause(0, false);
      await c.nodes[0]?.waitForOutput(gameLine('game lost to another node', gameId));
      await playToTheEnd([me.client], played);
      expect((await expectRecordedOnce(db, gameId, played)).game.owner_epoch).toBe(2);
    }, 180_000);
  });

  it('Redis stopped for 20 s mid-game: the owner plays on (its players hear the game) and says so on /health, the rest is refused at once, then the cluster heals', async () => {
    const { cluster: c, db, redis } = three();
    const [n1, n2] = [c.url(0), c.url(1)];
    const me = await player(n1, 'steady');
    const other = await player(n2, 'other');
    const { gameId, roomCode } = await botGame(me.client, 'normal', 40);
    await me.client.waitFor('gameStarted');
    const played: string[] = [];
    await playCards(me.client, 1, played);

    await redis.stop();
    const stoppedAt = Date.now();
    // Redis's loss and return show on /health within a second or so: a look four times a second.
    await expect.poll(async () => (await health(n1)).degraded, { timeout: 5000, interval: 250 }).toBe(true);
    // What needs Redis or another node is refused with a clear error, quickly.
    const asked = Date.now();
    expect(await other.client.emit('createGame', {})).toEqual({
      success: false,
      error: SERVER_TEXTS.clusterUnavailable,
      code: 'RECONNECTING',
    });
    expect(await other.client.emit('joinGame', { roomCode })).toEqual({
      success: false,
      error: SERVER_TEXTS.clusterUnavailable,
      code: 'RECONNECTING',
    });
    expect(Date.now() - asked).toBeLessThan(3000);
    // The owner's game goes on.
    const during = played.length;
    while (Date.now() - stoppedAt < 20_000) {
      const card = await playOne(me.client);
      if (card) played.push(card);
      await sleep(500);
    }
    expect(played.length).toBeGreaterThan(during);
    // Its broadcasts reach its own sockets while Redis is away: each play's cardPlayed came back.
    await me.client.waitFor('cardPlayed', (p) => p.cardId === played.at(-1));
    const heard = new Set(me.client.all('cardPlayed').map((p) => p.cardId as string));
    expect(played.slice(during).filter((card) => !heard.has(card))).toEqual([]);

    await redis.start();
    for (const node of [n1, n2]) {
      await expect.poll(async () => (await health(node)).degraded, { timeout: 10_000, interval: 250 }).toBe(false);
    }
    // Healed: a game made on one node is joined from the other, and the first game ends once.
    const third = await player(n1, 'third');
    const lobby = await other.client.emit('createGame', { maxPlayers: 2 });
    expect(lobby.success).toBe(true);
    expect(await third.client.emit('joinGame', { roomCode: lobby.data.roomCode })).toMatchObject({ success: true });
    await playToTheEnd([me.client], played, 240_000);
    await expectRecordedOnce(db, gameId, played);
  }, 360_000);

  describe('three nodes: the owner SIGKILLed mid-game', () => {
    // Its 5-s bound is taken with nothing else on the node that dies: the tests before it leave no game
    // or lobby there.

    it('SIGKILL of the owner mid-game: another node takes the game over from its log, every acknowledged play kept, one record', async () => {
      const { cluster: c, db } = three();
      const me = await player(c.url(1), 'survivor');
      // The game is created through node 1 (its owner); the player's socket stays on node 2.
      const owner = await connectTo(c.url(0), me.token);
      cleanups.push(() => owner.close());
      const { gameId } = await botGame(owner, 'blitz', 20);
      await me.client.waitFor('gameStarted');
      const bots = await call(c.url(1), 'GET', `/game/bot-status/${gameId}`, { token: me.token });
      expect(bots.body.data).toMatchObject({ gameId, isBotGame: true });
      const played: string[] = [];
      await playCards(me.client, 3, played);
      const killedAt = Date.now();
      expect(await c.kill(0, 'SIGKILL')).toBeNull();

      // Plays go on through node 2: the first one waits while the dead node's lease runs out and
      // another node takes the game over, and is acknowledged within 5 s of the kill.
      const first = await firstPlayWithin(me.client, 10_000);
      expect(first).not.toBeNull();
      expect(Date.now() - killedAt).toBeLessThan(5000);
      played.push(first as string);
      // The socket that was on the dead node comes back through another one and is put back in the game.
      const back = await connectTo(c.url(2), me.token);
      cleanups.push(() => back.close());
      expect((await back.waitFor('gameRejoined')).game.gameId).toBe(gameId);
      await playToTheEnd([me.client], played);
      expect((await expectRecordedOnce(db, gameId, played)).seats).toBe(2);
    }, 180_000);
  });
});
