/**
 * PostgreSQL refuses connections for three minutes around a game's end. The game goes on in memory,
 * its broadcasts wait for their log entries to be durable, and once the database is back the end is
 * written, announced and recorded exactly once, with the winner that played the last card.
 *
 * The database is really away (connections refused) while the three minutes pass on the server's
 * clock: every retry of the game log and of the record waits on that clock, and the test moves it to
 * each retry's time and waits for the retry to be made (and refused) before the next — so every
 * backoff step of three real minutes runs, in a few seconds. A real outage on the wall clock (20 s)
 * is the cluster chaos run's (cluster-chaos.test.ts).
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.ts';
import { type Booted, adminUrl, boot, call, newAccount } from './helpers/boot.ts';
import { botWinsSeed } from './helpers/deals.ts';
import { type Client, connect, settle } from './helpers/sockets.ts';

const OUTAGE_MS = 3 * 60_000;

describe('PostgreSQL away for 3 minutes around a game end', () => {
  let server: Booted;
  let client: Client;
  const clock = new ManualClock();
  const admin = async (statement: string) => {
    const connection = new pg.Client({ connectionString: adminUrl() });
    await connection.connect();
    try {
      await connection.query(statement);
    } finally {
      await connection.end();
    }
  };
  let database = '';

  beforeAll(async () => {
    server = await boot('embedded', {}, { clock, retryClock: clock, seeds: botWinsSeed });
    database = new URL(server.config.databaseUrl as string).pathname.slice(1);
  });
  afterAll(async () => {
    client?.close();
    await admin(`ALTER DATABASE ${database} ALLOW_CONNECTIONS true`).catch(() => {});
    await server.close();
  });

  it('the game ends during the outage and is recorded once afterwards, with the bot that played its last card', async () => {
    const account = await call(server.base, 'POST', '/auth/register', { body: newAccount('outage') });
    const token = account.body.data.token as string;
    client = await connect(server.base, token);
    const created = await client.emit('create-bot-game', {
      numberOfBots: 1,
      botDifficulty: 'easy',
      gameSpeed: 'fast',
      autoStart: true,
      cardsPerPlayer: 20,
    });
    const { gameId } = created.data;
    clock.advance(6000);
    await client.waitFor('gameStarted');
    clock.advance(5000);
    await settle(client);

    await admin(`ALTER DATABASE ${database} ALLOW_CONNECTIONS false`);
    await admin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${database}'`);
    while (server.app.games.find(gameId)?.status === 'active') clock.advance(1000);
    await settle(client);
    // Nothing that is not durable has been announced.
    expect(client.all('gameEnded')).toEqual([]);

    // Three minutes on the clock, each retry made and refused in turn.
    const figures = () => server.app.games.logFigures();
    const retriesBefore = figures().retries;
    await expect.poll(() => figures().retrying).toBeGreaterThan(0);
    const outageEnds = clock.now() + OUTAGE_MS;
    while (clock.now() < outageEnds) {
      const waiting = figures().retrying;
      expect(waiting, 'writes or records waiting to be retried').toBeGreaterThan(0);
      clock.advance(Math.min(outageEnds, clock.nextDue() ?? outageEnds) - clock.now());
      // The retries that fell due are made, refused, and wait again.
      await expect.poll(() => figures().retrying).toBe(waiting);
    }
    // Backoff of 100 ms doubling to 5 s (the log) and 0.5 s doubling to 30 s (the record) over 3 min.
    expect(figures().retries - retriesBefore).toBeGreaterThanOrEqual(40);
    expect(client.all('gameEnded')).toEqual([]);
    await admin(`ALTER DATABASE ${database} ALLOW_CONNECTIONS true`);

    // Back: the waiting retries fall due (at most 30 s on) and go through.
    const ending = client.waitFor('gameEnded', (p) => p.gameId === gameId);
    await expect
      .poll(() => {
        if (figures().retrying > 0) clock.advance(30_000);
        return client.all('gameEnded').length;
      })
      .toBe(1);
    const ended = await ending;
    expect(ended).toMatchObject({ reason: 'win', winner: { userId: 'bot-1' } });
    expect(ended.results[0]).toMatchObject({ playerId: 'bot-1', cardsLeft: 0 });
    await expect
      .poll(async () => (await call(server.base, 'GET', '/game/history', { token })).body.data?.games?.length, {
        timeout: 30_000,
      })
      .toBe(1);
    const [record] = (await call(server.base, 'GET', '/game/history', { token })).body.data.games;
    expect(record).toMatchObject({ gameId, reason: 'win', gameState: { winner: { userId: 'bot-1' } } });
    const seats = (await server.app.db.execute(
      sql`select count(*)::int as n from game_players where game_id = ${gameId}`,
    )) as unknown as {
      rows: { n: number }[];
    };
    expect(seats.rows[0]?.n).toBe(2);
  }, 120_000);
});
