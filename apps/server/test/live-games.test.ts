/**
 * Live games as a service operator sees them: a room that throws (in a command, a timer or while
 * being rebuilt) stops alone; a finished game whose record is refused is recorded after a restart,
 * as ended, never as a game in play; one user's concurrent creates and joins leave them in one game;
 * seats nobody connects to are freed; a clean stop keeps every change; bot status reads the room's clock.
 */
import { GAME_TEXTS } from '@memeslam/protocol';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.ts';
import { ENGINE_RULES, type Rules } from '../src/games/types.ts';
import { type Booted, DATABASE_MODES, boot, call, newAccount } from './helpers/boot.ts';
import { botWinsSeed } from './helpers/deals.ts';
import { type Client, connect, settle } from './helpers/sockets.ts';

/** The rows of a raw query (both drivers answer `{ rows }`). */
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

const BOT_GAME = { numberOfBots: 1, botDifficulty: 'easy', gameSpeed: 'fast', autoStart: true, cardsPerPlayer: 20 };

describe.each(DATABASE_MODES)('live games on %s', (mode) => {
  let server: Booted;
  const clock = new ManualClock();
  const clients: Client[] = [];
  /** Seeds handed out in order; a test may queue the next ones. */
  const queued: string[] = [];
  let drawn = 0;
  const seeds = () => queued.shift() ?? (drawn += 1).toString(16).padStart(32, 'a');
  /** Games (by seed) whose engine calls throw. */
  const faults = { apply: new Set<string>(), advance: new Set<string>() };
  const rules: Rules = {
    ...ENGINE_RULES,
    apply: (state, command, now) => {
      if (faults.apply.has(state.config.seed)) throw new Error('injected fault in apply');
      return ENGINE_RULES.apply(state, command, now);
    },
    advance: (state, now) => {
      if (faults.advance.has(state.config.seed)) throw new Error('injected fault in advance');
      return ENGINE_RULES.advance(state, now);
    },
  };
  const options = { clock, seeds, rules };

  beforeAll(async () => {
    server = await boot(mode, {}, options);
  });
  afterAll(async () => {
    clients.forEach((c) => c.close());
    await server.close();
  });

  async function player(prefix = 'live') {
    const res = await call(server.base, 'POST', '/auth/register', { body: newAccount(prefix) });
    const token = res.body.data.token as string;
    const client = await connect(server.base, token);
    clients.push(client);
    return { token, client, user: res.body.data.user as { id: string; username: string } };
  }

  /** A bot game dealt with the given seed (or the next one); returns its id. */
  async function botGame(client: Client, seed?: string): Promise<string> {
    if (seed) queued.push(seed);
    const created = await client.emit('create-bot-game', BOT_GAME);
    expect(created.success).toBe(true);
    clock.advance(1000);
    await client.waitFor('gameStarting', (p) => p.gameId === created.data.gameId);
    clock.advance(5000);
    await client.waitFor('gameStarted', (p) => p.gameId === created.data.gameId);
    return created.data.gameId as string;
  }

  async function history(token: string) {
    return (await call(server.base, 'GET', '/game/history', { token })).body.data.games as {
      gameId: string;
      reason: string;
      gameState: { winner: { userId: string } | null };
    }[];
  }

  it('a command that throws stops its game alone: aborted, players told, recorded; other games play on', async () => {
    const a = await player('faulty');
    const b = await player('steady');
    const seedA = 'fa17'.padEnd(32, '1');
    const gameA = await botGame(a.client, seedA);
    const gameB = await botGame(b.client, botWinsSeed());
    faults.apply.add(seedA);

    const refused = await a.client.emit('checkDeadlock', {});
    expect(refused).toEqual({ success: false, error: GAME_TEXTS.gameStopped, code: 'GAME_STOPPED' });
    expect(await a.client.waitFor('gameError')).toMatchObject({
      message: GAME_TEXTS.gameStopped,
      code: 'GAME_STOPPED',
    });
    const ended = await a.client.waitFor('gameEnded', (p) => p.gameId === gameA);
    expect(ended.reason).toBe('aborted');
    expect(ended.winner).toBeNull();
    await expect.poll(async () => (await history(a.token))[0]?.reason, { timeout: 10_000 }).toBe('aborted');

    // The other game is untouched: commands and timers go on.
    expect((await b.client.emit('checkDeadlock', {})).success).toBe(true);
    const plays = b.client.all('cardPlayed').length;
    clock.advance(10_000);
    await b.client.waitFor('cardPlayed', () => true, b.client.frames.length - 1);
    expect(b.client.all('cardPlayed').length).toBeGreaterThan(plays);
    expect(server.app.games.find(gameB)?.status).toBe('active');
    // The stopped game's player is free to play again.
    expect((await a.client.emit('create-bot-game', BOT_GAME)).success).toBe(true);
    await a.client.emit('leaveGame', {});
    await b.client.emit('leaveGame', {});
    faults.apply.delete(seedA);
  });

  it("a room's timer that throws stops that game alone; the process and the other rooms keep running", async () => {
    const a = await player('faulty');
    const b = await player('steady');
    const seedA = 'fa17'.padEnd(32, '2');
    const gameA = await botGame(a.client, seedA);
    await botGame(b.client, botWinsSeed());
    faults.advance.add(seedA);
    const before = b.client.all('cardPlayed').length;
    clock.advance(10_000);
    const ended = await a.client.waitFor('gameEnded', (p) => p.gameId === gameA);
    expect(ended.reason).toBe('aborted');
    await expect.poll(() => b.client.all('cardPlayed').length).toBeGreaterThan(before);
    expect((await call(server.base, 'GET', '/game/test')).status).toBe(200);
    await expect.poll(async () => (await history(a.token))[0]?.reason, { timeout: 10_000 }).toBe('aborted');
    await b.client.emit('leaveGame', {});
    faults.advance.delete(seedA);
  });

  it('a game whose log does not replay is set aside at start-up, once; the others come back', async () => {
    const a = await player('broken');
    const b = await player('restored');
    const gameA = await botGame(a.client);
    const gameB = await botGame(b.client);
    clock.advance(3000);
    await settle(a.client);
    // A log entry out of sequence: the replay cannot place it.
    await server.app.db.execute(
      sql`insert into game_log (game_id, n, at, seq, command) values (${gameA}, 100000, 0, 0, ${'{"type":"checkDeadlock","playerId":"x"}'}::jsonb)`,
    );
    const cardsB = server.app.games
      .find(gameB)
      ?.game()
      .players.map((p) => p.cardsLeft);
    a.client.close();
    b.client.close();

    await server.restart(options);
    expect(server.app.games.find(gameA)).toBeUndefined();
    const [row] = rowsOf<{ restore_error: string | null }>(
      await server.app.db.execute(sql`select restore_error from games where id = ${gameA}`),
    );
    expect(row?.restore_error).toMatch(/log entry 100000/);
    expect(
      server.app.games
        .find(gameB)
        ?.game()
        .players.map((p) => p.cardsLeft),
    ).toEqual(cardsB);
    const back = await connect(server.base, b.token);
    clients.push(back);
    expect((await back.waitFor('gameRejoined')).game.gameId).toBe(gameB);
    // The player of the set-aside game is not held in it.
    const again = await connect(server.base, a.token);
    clients.push(again);
    expect((await again.emit('create-bot-game', BOT_GAME)).success).toBe(true);
    await again.emit('leaveGame', {});
    await back.emit('leaveGame', {});

    // Set aside for good: a second start does not try it again.
    await server.restart(options);
    expect(server.app.games.find(gameA)).toBeUndefined();
  });

  it('a finished game whose record is refused comes back after a restart as ended and is recorded once', async () => {
    const p = await player('ended');
    await server.app.db.execute(
      sql.raw(`create or replace function refuse_replays() returns trigger language plpgsql as $$
        begin raise exception 'replays refused by the test'; end $$;
        create trigger refuse_replays before insert on replays for each row execute function refuse_replays();`),
    );
    const gameId = await botGame(p.client, botWinsSeed());
    while (server.app.games.find(gameId)?.status === 'active') clock.advance(2000);
    const ended = await p.client.waitFor('gameEnded', (e) => e.gameId === gameId);
    expect(ended.reason).toBe('win');
    expect(ended.winner.userId).toBe('bot-1');
    expect(await history(p.token)).toEqual([]);

    p.client.close();
    await server.restart(options);
    await server.app.db.execute(sql.raw('drop trigger refuse_replays on replays'));
    await expect.poll(async () => (await history(p.token)).length, { timeout: 15_000 }).toBe(1);
    const [record] = await history(p.token);
    expect(record).toMatchObject({ gameId, reason: 'win', gameState: { winner: { userId: 'bot-1' } } });
    // Never a game in play again: the player is free.
    const back = await connect(server.base, p.token);
    clients.push(back);
    expect((await back.emit('create-bot-game', BOT_GAME)).success).toBe(true);
    await back.emit('leaveGame', {});
    expect(await history(p.token)).toHaveLength(1);
  });

  it("one user's concurrent creates and joins, over sockets and HTTP, leave them in exactly one game", async () => {
    const me = await player('eager');
    const second = await connect(server.base, me.token);
    clients.push(second);
    const host = await player('host');
    const lobby = await host.client.emit('createGame', { maxPlayers: 4 });
    const http = (body: object, path = '/game/create-bot-game') =>
      call(server.base, 'POST', path, { token: me.token, body });
    const answers = await Promise.all([
      me.client.emit('create-bot-game', { ...BOT_GAME, autoStart: false }),
      second.emit('createGame', { maxPlayers: 2 }),
      http({ ...BOT_GAME, autoStart: false }),
      me.client.emit('joinGame', { roomCode: lobby.data.roomCode }),
      http({ settings: { maxPlayers: 3 } }, '/game/create'),
      second.emit('create-bot-game', BOT_GAME),
      http({ roomCode: lobby.data.roomCode }, '/game/join'),
    ]);
    expect(answers.length).toBe(7);
    const seated = server.app.games.liveRooms.filter((room) => room.isMember(me.user.id));
    expect(seated).toHaveLength(1);
    const stored = await server.app.db.execute(
      sql`select id from games where status <> 'finished' and lobby->'seats' @> ${JSON.stringify([{ playerId: me.user.id }])}::jsonb`,
    );
    expect(rowsOf<{ id: string }>(stored).map((r) => r.id)).toEqual([seated[0]?.id]);
    await me.client.emit('leaveGame', {});
    await host.client.emit('leaveGame', {});
  });

  it('a seat taken over HTTP whose owner never connects is freed after the 60 s grace; an unattended lobby closes', async () => {
    const host = await player('host');
    const lobby = await host.client.emit('createGame', { maxPlayers: 3 });
    const squatter = (await call(server.base, 'POST', '/auth/register', { body: newAccount('squat') })).body.data;
    const joined = await call(server.base, 'POST', '/game/join', {
      token: squatter.token,
      body: { roomCode: lobby.data.roomCode },
    });
    expect(joined.status).toBe(200);
    const alone = await call(server.base, 'POST', '/game/create', {
      token: (await call(server.base, 'POST', '/auth/register', { body: newAccount('alone') })).body.data.token,
      body: { settings: { maxPlayers: 2 } },
    });
    clock.advance(59_000);
    await settle(host.client);
    expect(server.app.games.find(lobby.data.gameId)?.game().playersCount).toBe(2);
    clock.advance(2000);
    const left = await host.client.waitFor('playerLeft', (p) => p.userId === squatter.user.id);
    expect(left.isBot).toBe(false);
    expect(server.app.games.find(lobby.data.gameId)?.game().playersCount).toBe(1);
    await expect
      .poll(
        async () =>
          (await call(server.base, 'GET', `/game/${alone.body.data.gameId}`, { token: squatter.token })).body.data.game
            .status,
      )
      .toBe('finished');
    await host.client.emit('leaveGame', {});
  });

  it('a clean stop keeps every change made before it; bot status reads the room clock', async () => {
    const p = await player('stopper');
    const gameId = await botGame(p.client, botWinsSeed());
    for (let i = 0; i < 60 && !p.client.all('cardPlayed').some((c) => c.isBot); i += 1) {
      clock.advance(500);
      await settle(p.client);
    }
    const status = (await call(server.base, 'GET', `/game/bot-status/${gameId}`, { token: p.token })).body.data;
    expect(status.bots[0].isActive).toBe(true);
    // Timer steps queued this instant and not yet written when the stop begins.
    clock.advance(6000);
    const before = server.app.games
      .find(gameId)
      ?.game()
      .players.map((x) => x.cardsLeft);
    p.client.close();
    await server.restart(options);
    expect(
      server.app.games
        .find(gameId)
        ?.game()
        .players.map((x) => x.cardsLeft),
    ).toEqual(before);
  });
});
