/**
 * Cluster mode (issue 14), nodes as real processes on loopback ports, one PostgreSQL database per
 * test and this machine's Redis: players on different nodes share one game, a spectator watches from
 * a third; the owner of a game is killed mid-game and another node finishes it from the log with
 * every acknowledged play kept and one record.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { matches } from '@memeslam/engine';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
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

/** N nodes on one fresh database; each node's processes are stopped and the database dropped after the test. */
async function cluster(size: number) {
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
      REDIS_URL: redisUrl as string,
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

async function player(base: string, name: string) {
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
    const seen = await call(n3.base, 'GET', `/game/${gameId}`, { token: watcher.token });
    expect(seen.body.data.game.players).toHaveLength(2);

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
});
