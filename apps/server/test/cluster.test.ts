/**
 * Cluster mode (issue 14), nodes as real processes on loopback ports, one PostgreSQL database per
 * test and this machine's Redis: players on different nodes share one game, a spectator watches from
 * a third; the owner of a game is killed mid-game and another node finishes it from the log with
 * every acknowledged play kept and one record.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { matches } from '@memeslam/engine';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { SERVER_TEXTS } from '@memeslam/protocol';
import { call, newAccount, scratchPostgres } from './helpers/boot.ts';
import { listening, mainScript, run } from './helpers/process.ts';
import { type Client, connect } from './helpers/sockets.ts';

const redisUrl = process.env.REDIS_URL;
const postgresUrl = process.env.DATABASE_URL;
const available = Boolean(redisUrl && postgresUrl);
if (!available) {
  if (process.env.CI) throw new Error('cluster tests need REDIS_URL and DATABASE_URL in CI');
  console.warn('[cluster] SKIPPED: set REDIS_URL and DATABASE_URL to run the cluster-mode tests');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Node {
  readonly id: string;
  base: string;
  proc: ReturnType<typeof run>;
}

/** A Redis of the test's own on a free port, stopped and started again on the same port. */
async function ownRedis() {
  const port = await freePort();
  let proc: ChildProcess | null = null;
  const start = async () => {
    const child = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    proc = child;
    let out = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('Ready to accept connections')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${out}`)));
    });
  };
  const stop = async () => {
    const running = proc;
    proc = null;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  await start();
  cleanups.push(stop);
  return { url: `redis://127.0.0.1:${port}`, start, stop };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** N nodes on one fresh database; each node's processes are stopped and the database dropped after the test. */
async function cluster(size: number, options: { redisUrl?: string } = {}) {
  const database = await scratchPostgres();
  const secret = randomBytes(32).toString('hex');
  const nodes: Node[] = [];
  const start = async (id: string): Promise<Node> => {
    const dataDir = mkdtempSync(join(tmpdir(), `memeslam-${id}-`));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const proc = run(mainScript, [], {
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      RATE_LIMITS: 'off',
      JWT_SECRET: secret,
      NODE_ID: id,
      DATABASE_URL: database.url,
      REDIS_URL: options.redisUrl ?? (redisUrl as string),
    });
    cleanups.push(async () => {
      if (proc.child.exitCode === null && proc.child.signalCode === null) {
        proc.child.kill('SIGKILL');
        await proc.exited;
      }
    });
    return { id, base: await listening(proc.child, proc.out), proc };
  };
  cleanups.push(() => database.drop());
  for (let i = 1; i <= size; i += 1) nodes.push(await start(`node-${i}`));
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  cleanups.push(() => db.end());
  return {
    nodes,
    db,
    /** Starts a stopped node again under its name (a new port). */
    async restart(node: Node): Promise<void> {
      const again = await start(node.id);
      node.base = again.base;
      node.proc = again.proc;
    },
  };
}

async function player(base: string, name: string): Promise<{ token: string; userId: string; client: Client }> {
  const account = newAccount(name);
  const registered = await call(base, 'POST', '/auth/register', { body: account });
  expect(registered.status).toBe(201);
  const token = registered.body.data.token as string;
  const client = await connect(base, token);
  cleanups.push(() => client.close());
  return { token, userId: registered.body.data.user.id as string, client };
}

/** Plays one matching card if the hand has one; the card's id once acknowledged. */
async function playOne(client: Client): Promise<string | null> {
  const state = await client.emit('requestHand', {});
  if (!state.success) return null;
  const tops = (state.data.gameState.discardPiles as { id: string }[][]).map((p) => p.at(-1));
  for (const card of state.data.hand) {
    const pileIndex = tops.findIndex((top) => top && matches(card, top as never));
    if (pileIndex >= 0) {
      const ack = await client.emit('playCard', { cardId: card.id, pileIndex });
      return ack.success ? (card.id as string) : null;
    }
  }
  return null;
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
  const game = await db.query('select status, end_reason, winner_id from games where id = $1', [gameId]);
  const seats = await db.query('select player_id from game_players where game_id = $1', [gameId]);
  const replay = await db.query('select commands from replays where game_id = $1', [gameId]);
  return { game: game.rows[0], seats: seats.rows.length, replays: replay.rows as { commands: unknown[] }[] };
}

describe.skipIf(!available)('cluster mode', () => {
  it('two players on different nodes play one game to the end; a spectator on a third node sees it', async () => {
    const { nodes, db } = await cluster(3);
    const [n1, n2, n3] = nodes as [Node, Node, Node];
    const host = await player(n1.base, 'host');
    const guest = await player(n2.base, 'guest');
    const watcher = await player(n3.base, 'watcher');

    const created = await host.client.emit('createGame', { maxPlayers: 2, gameSpeed: 'blitz', cardsPerPlayer: 20 });
    expect(created.success).toBe(true);
    const { roomCode, gameId } = created.data;
    // The lobby is found and joined from another node; the host hears of it through the fan-out.
    const joined = await guest.client.emit('joinGame', { roomCode });
    expect(joined).toMatchObject({ success: true, data: { gameId, roomCode } });
    await host.client.waitFor('playerJoined', (p) => p.player.userId === guest.userId);
    // Any node shows the lobby: by id, and in the list of live games (every node's).
    const seen = await call(n3.base, 'GET', `/game/${gameId}`, { token: watcher.token });
    expect(seen.body.data.game.players).toHaveLength(2);
    const listed = await call(n3.base, 'GET', '/game/active', { token: watcher.token });
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

    await expect.poll(async () => (await records(db, gameId)).game.status, { timeout: 10_000 }).toBe('finished');
    const recorded = await records(db, gameId);
    expect(recorded.seats).toBe(2);
    expect(recorded.replays).toHaveLength(1);
    expect(recorded.game.winner_id).toBe(ended.winnerId ?? ended.winner?.userId ?? recorded.game.winner_id);
  }, 180_000);

  it('SIGKILL of the owner mid-game: another node takes the game over from its log, every acknowledged play kept, one record', async () => {
    const { nodes, db } = await cluster(3);
    const [n1, n2] = nodes as [Node, Node, Node];
    const me = await player(n2.base, 'survivor');
    // The game is created through node 1 (its owner); the player's socket stays on node 2.
    const owner = await connect(n1.base, me.token);
    const created = await owner.emit('create-bot-game', {
      numberOfBots: 1,
      botDifficulty: 'easy',
      gameSpeed: 'blitz',
      autoStart: true,
      cardsPerPlayer: 20,
    });
    expect(created.success).toBe(true);
    const { gameId } = created.data;
    await me.client.waitFor('gameStarted');
    const bots = await call(n2.base, 'GET', `/game/bot-status/${gameId}`, { token: me.token });
    expect(bots.body.data).toMatchObject({ gameId, isBotGame: true });
    const played: string[] = [];
    while (played.length < 3) {
      const card = await playOne(me.client);
      if (card) played.push(card);
      else await sleep(100);
    }
    const killedAt = Date.now();
    n1.proc.child.kill('SIGKILL');
    await n1.proc.exited;

    // Plays go on through node 2; the first may be refused while the dead node's lease runs out.
    const frames = me.client.frames.length;
    await me.client.waitFor('cardPlayed', () => true, frames);
    const failover = Date.now() - killedAt;
    expect(failover).toBeLessThan(5000);
    await playToTheEnd([me.client], played);

    await expect.poll(async () => (await records(db, gameId)).game.status, { timeout: 10_000 }).toBe('finished');
    const recorded = await records(db, gameId);
    expect(recorded.seats).toBe(2);
    expect(recorded.replays).toHaveLength(1);
    const commands = recorded.replays[0]?.commands as { command: { type: string; cardId?: string } }[];
    const replayed = new Set(commands.filter((c) => c.command.type === 'playCard').map((c) => c.command.cardId));
    for (const card of played) expect(replayed.has(card)).toBe(true);
  }, 180_000);

  it('a rolling restart of every node during play: each hands its games over on SIGTERM and the game goes on', async () => {
    const { nodes, db, restart } = await cluster(3);
    const me = await player((nodes[0] as Node).base, 'roller');
    const created = await me.client.emit('create-bot-game', {
      numberOfBots: 1,
      botDifficulty: 'easy',
      gameSpeed: 'normal',
      autoStart: true,
      cardsPerPlayer: 40,
    });
    expect(created.success).toBe(true);
    const { gameId } = created.data;
    await me.client.waitFor('gameStarted');
    const played: string[] = [];
    const playSome = async (count: number) => {
      const goal = played.length + count;
      while (played.length < goal) {
        const card = await playOne(me.client);
        if (card) played.push(card);
        else await sleep(100);
      }
    };
    await playSome(2);
    let client = me.client;
    for (const [i, node] of nodes.entries()) {
      const next = nodes[(i + 1) % nodes.length] as Node;
      node.proc.child.kill('SIGTERM');
      expect(await node.proc.exited).toBe(0);
      // The player's socket was on the stopped node: it comes back through the next one.
      client.close();
      client = await connect(next.base, me.token);
      cleanups.push(() => client.close());
      const rejoined = await client.waitFor('gameRejoined');
      expect(rejoined.game.gameId).toBe(gameId);
      const hand = new Set((rejoined.hand as { id: string }[]).map((c) => c.id));
      for (const card of played) expect(hand.has(card)).toBe(false);
      me.client = client;
      await playSome(2);
      await restart(node);
    }
    await playToTheEnd([client], played, 240_000);
    await expect.poll(async () => (await records(db, gameId)).game.status, { timeout: 10_000 }).toBe('finished');
    const recorded = await records(db, gameId);
    expect(recorded.replays).toHaveLength(1);
    const commands = recorded.replays[0]?.commands as { command: { type: string; cardId?: string } }[];
    const replayed = new Set(commands.filter((c) => c.command.type === 'playCard').map((c) => c.command.cardId));
    for (const card of played) expect(replayed.has(card)).toBe(true);
  }, 360_000);

  it('Redis stopped for 20 s mid-game: the owner plays on and says so on /health, the rest is refused at once, then the cluster heals', async () => {
    const redis = await ownRedis();
    const { nodes, db } = await cluster(2, { redisUrl: redis.url });
    const [n1, n2] = nodes as [Node, Node];
    const me = await player(n1.base, 'steady');
    const other = await player(n2.base, 'other');
    const created = await me.client.emit('create-bot-game', {
      numberOfBots: 1,
      botDifficulty: 'easy',
      gameSpeed: 'normal',
      autoStart: true,
      cardsPerPlayer: 40,
    });
    const { gameId, roomCode } = created.data;
    await me.client.waitFor('gameStarted');
    const played: string[] = [];
    while (played.length < 1) {
      const card = await playOne(me.client);
      if (card) played.push(card);
      else await sleep(100);
    }

    await redis.stop();
    const stoppedAt = Date.now();
    await expect.poll(async () => (await health(n1.base)).degraded, { timeout: 5000 }).toBe(true);
    // What needs Redis or another node is refused with a clear error, quickly.
    const asked = Date.now();
    expect(await other.client.emit('createGame', {})).toEqual({
      success: false,
      error: SERVER_TEXTS.clusterUnavailable,
    });
    expect(await other.client.emit('joinGame', { roomCode })).toEqual({
      success: false,
      error: SERVER_TEXTS.clusterUnavailable,
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

    await redis.start();
    for (const node of [n1, n2]) {
      await expect.poll(async () => (await health(node.base)).degraded, { timeout: 10_000 }).toBe(false);
    }
    // Healed: a game made on one node is joined from the other, and the first game ends once.
    const third = await player(n1.base, 'third');
    const lobby = await other.client.emit('createGame', { maxPlayers: 2 });
    expect(lobby.success).toBe(true);
    expect(await third.client.emit('joinGame', { roomCode: lobby.data.roomCode })).toMatchObject({ success: true });
    await playToTheEnd([me.client], played, 240_000);
    await expect.poll(async () => (await records(db, gameId)).game.status, { timeout: 10_000 }).toBe('finished');
    expect((await records(db, gameId)).replays).toHaveLength(1);
  }, 360_000);
});
