/**
 * The game calls over HTTP: create, create-bot-game, join, leave, lookups by id and room code, the
 * dashboard's lists and stats, history, bot status and replays — the same rooms the sockets see.
 */
import { TIME_CAP_MS } from '@memeslam/engine';
import {
  LOBBY_TEXTS,
  activeGamesDataSchema,
  gameResultDataSchema,
  gameSchema,
  gameStatsDataSchema,
} from '@memeslam/protocol';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.ts';
import { gamePlayers, replays } from '../src/db/schema.ts';
import { type Booted, DATABASE_MODES, boot, call, newAccount } from './helpers/boot.ts';
import { type Client, connect } from './helpers/sockets.ts';

describe.each(DATABASE_MODES)('game routes on %s', (mode) => {
  let server: Booted;
  const clock = new ManualClock();
  const clients: Client[] = [];
  beforeAll(async () => {
    server = await boot(mode, {}, { clock });
  });
  afterAll(async () => {
    clients.forEach((c) => c.close());
    await server.close();
  });

  async function account(prefix = 'http') {
    const res = await call(server.base, 'POST', '/auth/register', { body: newAccount(prefix) });
    return { token: res.body.data.token as string, user: res.body.data.user as { id: string; username: string } };
  }

  it('requires sign-in', async () => {
    for (const [method, path] of [
      ['POST', '/game/create'],
      ['GET', '/game/active'],
      ['GET', '/game/stats'],
      ['GET', '/game/my-games'],
    ] as const) {
      expect((await call(server.base, method, path)).status).toBe(401);
    }
    expect((await call(server.base, 'GET', '/game/test')).body).toEqual({ success: true, data: { ok: true } });
  });

  it('create over HTTP, join over HTTP, and the socket sees the same room', async () => {
    const host = await account();
    const guest = await account();
    const created = await call(server.base, 'POST', '/game/create', {
      token: host.token,
      body: { settings: { maxPlayers: 2, cardsPerPlayer: 40, gameSpeed: 'slow' } },
    });
    expect(created.status).toBe(201);
    const { gameId, roomCode, game } = created.body.data;
    expect(gameSchema.parse(game)).toMatchObject({
      status: 'waiting',
      host: { userId: host.user.id, username: host.user.username },
      gameSettings: { cardsPerPlayer: 40, gameSpeed: 'slow', allowSpectators: true },
      isBotGame: false,
      botInfo: null,
    });

    const hostSocket = await connect(server.base, host.token);
    clients.push(hostSocket);
    const joined = await call(server.base, 'POST', '/game/join', { token: guest.token, body: { roomCode } });
    expect(joined.status).toBe(200);
    expect(joined.body.data.game.playersCount).toBe(2);
    expect((await hostSocket.waitFor('playerJoined')).player.userId).toBe(guest.user.id);

    for (const key of [gameId, roomCode, roomCode.toLowerCase()]) {
      const res = await call(server.base, 'GET', `/game/${key}`, { token: guest.token });
      expect(res.body.data.game.gameId).toBe(gameId);
    }
    const mine = await call(server.base, 'GET', '/game/my-games', { token: guest.token });
    expect(mine.body.data.games.map((g: { gameId: string }) => g.gameId)).toEqual([gameId]);

    const full = await call(server.base, 'POST', '/game/join', { token: (await account()).token, body: { roomCode } });
    expect(full.status).toBe(400);
    expect(full.body.message).toBe(LOBBY_TEXTS.gameFull);
    const unknown = await call(server.base, 'POST', '/game/join', { token: guest.token, body: { roomCode: 'QQQQQQ' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(LOBBY_TEXTS.gameNotFound);
    const badCode = await call(server.base, 'POST', '/game/join', { token: guest.token, body: { roomCode: '??' } });
    expect(badCode.status).toBe(422);

    const left = await call(server.base, 'POST', `/game/${gameId}/leave`, { token: guest.token });
    expect(left.status).toBe(200);
    expect((await hostSocket.waitFor('playerLeft')).userId).toBe(guest.user.id);
    expect((await call(server.base, 'POST', `/game/${gameId}/leave`, { token: guest.token })).status).toBe(400);
    await call(server.base, 'POST', `/game/${gameId}/leave`, { token: host.token });
    expect(
      (await call(server.base, 'GET', '/game/00000000-0000-0000-0000-000000000000', { token: host.token })).status,
    ).toBe(404);
  });

  it('create-bot-game answers gameId, roomCode, numberOfBots and botDifficulty; refuses wagered and bad seats', async () => {
    const me = await account();
    const res = await call(server.base, 'POST', '/game/create-bot-game', {
      token: me.token,
      body: {
        numberOfBots: 3,
        botDifficulty: 'hard',
        maxPlayers: 4,
        gameSpeed: 'fast',
        autoStart: false,
        cardsPerPlayer: 30,
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ numberOfBots: 3, botDifficulty: 'hard', roomCode: expect.any(String) });
    expect(res.body.data.game.players.filter((p: { isBot: boolean }) => p.isBot)).toHaveLength(3);

    const bot = await call(server.base, 'GET', `/game/bot-status/${res.body.data.gameId}`, { token: me.token });
    expect(bot.body.data).toMatchObject({ isBotGame: true });
    expect(bot.body.data.bots).toHaveLength(3);
    expect(bot.body.data.bots[0]).toMatchObject({ difficulty: 'hard', cardsLeft: 30, isActive: false });

    const wagered = await call(server.base, 'POST', '/game/create', {
      token: me.token,
      body: { settings: { mode: 'wagered' } },
    });
    expect(wagered.status).toBe(422);
    expect(wagered.body.message).toBe('Wagered games coming soon!');
    const seats = await call(server.base, 'POST', '/game/create-bot-game', {
      token: me.token,
      body: { numberOfBots: 2, maxPlayers: 2 },
    });
    expect(seats.status).toBe(422);
    expect(seats.body.message).toBe('Max players must be greater than the number of bots');
    await call(server.base, 'POST', `/game/${res.body.data.gameId}/leave`, { token: me.token });
  });

  it('GET /game/active lists live games with filters and the bot/human summary', async () => {
    const a = await account();
    const b = await account();
    const human = await call(server.base, 'POST', '/game/create', { token: a.token, body: { settings: {} } });
    const botGame = await call(server.base, 'POST', '/game/create-bot-game', {
      token: b.token,
      body: { numberOfBots: 1, botDifficulty: 'easy', autoStart: false },
    });
    const all = await call(server.base, 'GET', `/game/active?_t=${Date.now()}`, { token: a.token });
    const data = activeGamesDataSchema.parse(all.body.data);
    const ids = data.games.map((g) => g.gameId);
    expect(ids).toContain(human.body.data.gameId);
    expect(ids).toContain(botGame.body.data.gameId);
    expect(data.summary.botGames).toBeGreaterThanOrEqual(1);
    expect(data.summary.humanGames).toBeGreaterThanOrEqual(1);

    const onlyBots = await call(server.base, 'GET', '/game/active?gameMode=bot', { token: a.token });
    expect(onlyBots.body.data.games.every((g: { isBotGame: boolean }) => g.isBotGame)).toBe(true);
    const noBots = await call(server.base, 'GET', '/game/active?includeBotGames=false', { token: a.token });
    expect(noBots.body.data.games.some((g: { isBotGame: boolean }) => g.isBotGame)).toBe(false);
    const easy = await call(server.base, 'GET', '/game/active?botDifficulty=hard', { token: a.token });
    expect(easy.body.data.games.map((g: { gameId: string }) => g.gameId)).not.toContain(botGame.body.data.gameId);
    const wagered = await call(server.base, 'GET', '/game/active?gameMode=wagered', { token: a.token });
    expect(wagered.body.data.games).toEqual([]);
    const limited = await call(server.base, 'GET', '/game/active?limit=1', { token: a.token });
    expect(limited.body.data.games).toHaveLength(1);
    expect((await call(server.base, 'GET', '/game/active?limit=0', { token: a.token })).status).toBe(422);
    await call(server.base, 'POST', `/game/${human.body.data.gameId}/leave`, { token: a.token });
    await call(server.base, 'POST', `/game/${botGame.body.data.gameId}/leave`, { token: b.token });
  });

  it('stats, history and replay after a finished bot game', async () => {
    const me = await account('stats');
    const socket = await connect(server.base, me.token);
    clients.push(socket);
    const res = await call(server.base, 'POST', '/game/create-bot-game', {
      token: me.token,
      body: { numberOfBots: 1, botDifficulty: 'expert', gameSpeed: 'blitz', autoStart: true, cardsPerPlayer: 20 },
    });
    const { gameId } = res.body.data;
    expect((await call(server.base, 'GET', `/game/${gameId}/replay`, { token: me.token })).status).toBe(404);
    // The person never plays. The bot usually wins, but it can get stuck while the idle person could
    // still play (no deadlock to resolve); then the 15-minute cap ends the game with the bot ahead.
    for (let i = 0; i <= TIME_CAP_MS / 1000 + 5 && socket.all('gameEnded').length === 0; i += 1) {
      clock.advance(1000);
      await socket.emit('getPowerUpStatus', {});
    }
    const ended = await socket.waitFor('gameEnded');
    expect(ended.winner).toMatchObject({ isBot: true, botDifficulty: 'expert' });

    await expect
      .poll(async () => (await call(server.base, 'GET', '/game/history', { token: me.token })).body.data.total)
      .toBe(1);
    const history = (await call(server.base, 'GET', '/game/history?limit=5&offset=0', { token: me.token })).body.data;
    expect(history.games[0]).toMatchObject({ gameId, isBotGame: true, botDifficulty: 'expert', won: false, place: 2 });
    expect(history.games[0].gameState.winner).toMatchObject({ isBot: true });

    const stats = gameStatsDataSchema.parse(
      (await call(server.base, 'GET', '/game/stats', { token: me.token })).body.data,
    );
    expect(stats.userStats).toMatchObject({
      totalGames: 1,
      totalWins: 0,
      winRate: 0,
      recentBotGames: 1,
      recentHumanGames: 0,
    });
    expect(stats.globalStats.totalBotGames).toBeGreaterThanOrEqual(1);
    expect(stats.globalStats.botGamesByDifficulty.expert).toBeGreaterThanOrEqual(1);
    expect(stats.recentGames[0]?.gameId).toBe(gameId);

    const finished = await call(server.base, 'GET', `/game/${gameId}`, { token: me.token });
    expect(finished.body.data.game.status).toBe('finished');
    const replay = await call(server.base, 'GET', `/game/${gameId}/replay`, { token: me.token });
    expect(replay.body.data).toMatchObject({ gameId, seed: ended.seed });
    // The result, for good: by id and by room code, as the gameEnded event gave it.
    expect((await call(server.base, 'GET', `/game/${gameId}/result`, { token: me.token })).status).toBe(200);
    const result = gameResultDataSchema.parse(
      (await call(server.base, 'GET', `/game/${res.body.data.roomCode}/result`, { token: me.token })).body.data,
    );
    expect(result.game).toMatchObject({ gameId, status: 'finished', isBotGame: true });
    expect(result.result).toEqual({
      gameId,
      winner: ended.winner,
      duration: ended.duration,
      durationMs: ended.durationMs,
      results: ended.results,
      reason: ended.reason,
    });
    // Someone else, the host having allowed spectators (the default): the same; an unknown game: 404.
    const passerby = await account('passerby');
    expect((await call(server.base, 'GET', `/game/${gameId}/result`, { token: passerby.token })).body.data).toEqual(
      result,
    );
    const unknown = await call(server.base, 'GET', '/game/QQQQ99/result', { token: me.token });
    expect(unknown).toMatchObject({ status: 404, body: { message: LOBBY_TEXTS.gameNotFound } });
    const mineFinished = await call(server.base, 'GET', '/game/my-games?status=finished', { token: me.token });
    expect(mineFinished.body.data.games.map((g: { gameId: string }) => g.gameId)).toContain(gameId);

    // The export holds the game; deleting the account keeps the game with an anonymous seat.
    const exported = await call(server.base, 'GET', '/auth/export', { token: me.token });
    expect(exported.body.data.games.map((g: { gameId: string }) => g.gameId)).toEqual([gameId]);
    const deleted = await call(server.base, 'DELETE', '/auth/account', {
      token: me.token,
      body: { password: 'correct horse 1' },
    });
    expect(deleted.status).toBe(200);
    const seats = await server.app.db.select().from(gamePlayers).where(eq(gamePlayers.gameId, gameId));
    const human = seats.find((s) => !s.isBot)!;
    expect(human).toMatchObject({ userId: null, username: 'Deleted player', playerId: `deleted-${human.seat}` });
    const [stored] = await server.app.db.select().from(replays).where(eq(replays.gameId, gameId));
    expect(JSON.stringify(stored)).not.toContain(me.user.id);
    expect(JSON.stringify(stored)).not.toContain(me.user.username);
    const other = await account('viewer');
    const still = await call(server.base, 'GET', `/game/${gameId}`, { token: other.token });
    expect(still.body.data.game.players.map((p: { username: string }) => p.username)).toContain('Deleted player');
  }, 60_000);
});
