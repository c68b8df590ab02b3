/**
 * The real-time game service over real socket.io clients against a booted server, with the rooms'
 * clock driven by hand: connection auth, lobby rules, a bot game to its end and its record.
 */
import { createHash } from 'node:crypto';
import { advance, apply, createGame } from '@memeslam/engine';
import { LOBBY_TEXTS, gameSchema, handshakeRefusalSchema } from '@memeslam/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.ts';
import { LocalAdapter } from '../src/realtime/local-adapter.ts';
import { SOCKET_TRANSPORT_SETTINGS } from '../src/realtime/transport.ts';
import { type Booted, DATABASE_MODES, boot, call, newAccount } from './helpers/boot.ts';
import { type Client, connect, playOne, settle } from './helpers/sockets.ts';

/** Every database mode, on the tuned transport and on socket.io's stock one (SOCKET_TRANSPORT). */
const RUNS = DATABASE_MODES.flatMap((mode) => SOCKET_TRANSPORT_SETTINGS.map((transport) => ({ mode, transport })));

describe.each(RUNS)('real-time games on $mode, $transport transport', ({ mode, transport }) => {
  let server: Booted;
  const clock = new ManualClock();
  const clients: Client[] = [];
  beforeAll(async () => {
    // Seeded deals and a hand-driven clock: each game here plays the same way on every run.
    let dealt = 0;
    server = await boot(
      mode,
      { SOCKET_TRANSPORT: transport },
      { clock, seeds: () => (dealt += 1).toString(16).padStart(32, 'a') },
    );
  });
  afterAll(async () => {
    clients.forEach((c) => c.close());
    await server.close();
  });

  async function player(prefix = 'p') {
    const res = await call(server.base, 'POST', '/auth/register', { body: newAccount(prefix) });
    const client = await connect(server.base, res.body.data.token);
    clients.push(client);
    return {
      client,
      token: res.body.data.token as string,
      user: res.body.data.user as { id: string; username: string },
    };
  }

  describe('connection', () => {
    it('runs on the transport SOCKET_TRANSPORT names', async () => {
      const { client } = await player();
      await client.waitFor('connected');
      const tuned = transport === 'tuned';
      expect(server.app.io.of('/').adapter instanceof LocalAdapter).toBe(tuned);
      // A coalesced connection's flush is its own, put off to the end of the turn (coalesced-writes.ts).
      const connections = [...server.app.io.of('/').sockets.values()].map((socket) => socket.conn);
      expect(connections.length).toBeGreaterThan(0);
      for (const connection of connections) expect(Object.hasOwn(connection, 'flush')).toBe(tuned);
    });

    it('refuses a missing or bad token with an Authentication error', async () => {
      await expect(connect(server.base, undefined)).rejects.toThrow(/Authentication/);
      await expect(connect(server.base, 'not-a-jwt')).rejects.toThrow(/Authentication/);
      // The client decides by the code the refusal carries, never by its text.
      for (const token of [undefined, 'not-a-jwt']) {
        const refused = await connect(server.base, token).catch((error: Error & { data?: unknown }) => error);
        expect(handshakeRefusalSchema.parse((refused as Error & { data?: unknown }).data)).toEqual({
          code: 'AUTHENTICATION_FAILED',
        });
      }
    });

    it('greets a signed-in socket and answers every event through its ack', async () => {
      const { client, user } = await player();
      expect(await client.waitFor('connected')).toEqual({ userId: user.id, username: user.username });
      expect(await client.emit('noSuchEvent', {})).toEqual({
        success: false,
        error: 'Unknown event',
        code: 'UNKNOWN_EVENT',
      });
      expect(await client.emit('startGame', {})).toEqual({
        success: false,
        error: LOBBY_TEXTS.notInGame,
        code: 'NOT_IN_GAME',
      });
      const bad = await client.emit('playCard', { cardId: 42 });
      expect(bad.success).toBe(false);
      expect(typeof bad.error).toBe('string');
      expect(bad.code).toBe('INVALID_PAYLOAD');
      // Without an ack the refusal comes as an event: gameError for game commands, error otherwise.
      client.socket.emit('playCard', { cardId: 'x', pileIndex: 0 });
      expect(await client.waitFor('gameError')).toEqual({ message: LOBBY_TEXTS.notInGame, code: 'NOT_IN_GAME' });
      client.socket.emit('noSuchEvent');
      expect(await client.waitFor('error')).toEqual({ message: 'Unknown event', code: 'UNKNOWN_EVENT' });
    });

    it("also works over long polling, the room's broadcasts and the player's hand included", async () => {
      const res = await call(server.base, 'POST', '/auth/register', { body: newAccount('poll') });
      const client = await connect(server.base, res.body.data.token, { transports: ['polling'] });
      clients.push(client);
      expect((await client.emit('getPowerUpStatus')).error).toBe(LOBBY_TEXTS.notInGame);
      // A step's messages are encoded when it runs and sent once it is durable: a polling socket gets
      // them as text, not as the WebSocket frame made for the others.
      const created = await client.emit('create-bot-game', { numberOfBots: 1, maxPlayers: 2, autoStart: true });
      const { gameId } = created.data;
      clock.advance(1000);
      await client.waitFor('gameStarting', (p) => p.gameId === gameId);
      clock.advance(5000);
      await client.waitFor('gameStarted', (p) => p.gameId === gameId);
      const dealt = await client.waitFor('handDealt');
      expect(dealt.hand.length).toBeGreaterThan(0);
      expect((await client.emit('stopAllBots', { gameId, reason: 'returnToDashboard' })).success).toBe(true);
      await client.waitFor('gameEnded', (p) => p.gameId === gameId);
    });
  });

  describe('lobby', () => {
    it('creates a room with a 6-character code that another player joins; host-only start once all are ready', async () => {
      const host = await player('host');
      const guest = await player('guest');
      const created = await host.client.emit('createGame', { maxPlayers: 3, gameSpeed: 'fast', cardsPerPlayer: 20 });
      expect(created.success).toBe(true);
      const { roomCode, gameId, game } = created.data;
      expect(roomCode).toMatch(/^[ABCDEFGHJKLMNPQRSTUVWXYZ23456789]{6}$/);
      expect(gameSchema.parse(game)).toMatchObject({ status: 'waiting', maxPlayers: 3, isOpen: true, playersCount: 1 });
      expect(await host.client.waitFor('gameCreated')).toMatchObject({ success: true, roomCode, gameId });

      const joined = await guest.client.emit('joinGame', { roomCode: roomCode.toLowerCase() });
      expect(joined).toMatchObject({ success: true, data: { gameId, roomCode } });
      const announced = await host.client.waitFor('playerJoined');
      expect(announced.player).toMatchObject({ userId: guest.user.id, isReady: false, isBot: false });

      expect((await guest.client.emit('startGame', {})).error).toBe(LOBBY_TEXTS.onlyHostCanStart);
      expect((await host.client.emit('startGame', {})).error).toBe(LOBBY_TEXTS.allPlayersMustBeReady);
      await host.client.emit('setPlayerReady', { isReady: true });
      expect(await guest.client.emit('setPlayerReady', { isReady: true })).toEqual({
        success: true,
        data: { isReady: true },
      });
      await host.client.waitFor('allPlayersReady');
      const ready = await host.client.waitFor('playerReadyChanged', (p) => p.userId === guest.user.id);
      expect(ready).toMatchObject({ isReady: true, isBot: false });

      const start = await host.client.emit('startGame', {});
      expect(start).toEqual({ success: true, data: { status: 'starting' } });
      expect(await host.client.emit('startGame', {})).toEqual({ success: true, data: { status: 'starting' } });
      const starting = await guest.client.waitFor('gameStarting');
      expect(starting).toMatchObject({ gameId, countdownDuration: 5000, isBotGame: false });
      expect(starting.startsAt).toBe(clock.now() + 5000);
      // A client arriving mid-countdown (a reload) reads the same start time from the game.
      const rejoined = await guest.client.emit('joinGame', { roomCode });
      expect(rejoined.data.game).toMatchObject({ status: 'starting', startsAt: starting.startsAt });

      clock.advance(5000);
      const started = await guest.client.waitFor('gameStarted');
      expect(started.seedCommitment).toMatch(/^[0-9a-f]{64}$/);
      expect(started.gameState.discardPiles).toHaveLength(2);
      const dealt = await guest.client.waitFor('handDealt');
      expect(dealt).toMatchObject({ deckSize: 17, cardsLeft: 20 });
      expect(dealt.hand).toHaveLength(3);
      expect((await host.client.emit('startGame', {})).data).toEqual({ status: 'active' });

      // A latecomer may watch (spectators are allowed by default): public view, no hand, no commands.
      const late = await player('late');
      const watching = await late.client.emit('joinGame', { roomCode });
      expect(watching.data.game.status).toBe('active');
      expect(watching.data.game.players.map((p: { userId: string }) => p.userId)).not.toContain(late.user.id);
      expect((await late.client.emit('playCard', { cardId: dealt.hand[0].id, pileIndex: 0 })).error).toBe(
        LOBBY_TEXTS.notInGame,
      );
      expect((await late.client.emit('requestHand', {})).error).toBe(LOBBY_TEXTS.notInGame);
      await host.client.emit('leaveGame', {});
      const left = await late.client.waitFor('playerLeft', (p) => p.userId === host.user.id);
      expect(left.isBot).toBe(false);
      expect(late.client.all('handDealt')).toEqual([]);
      expect(late.client.all('handUpdated')).toEqual([]);
      await guest.client.emit('leaveGame', {});
    });

    it('refuses wagered games, full rooms and unknown codes with their texts', async () => {
      const host = await player();
      expect((await host.client.emit('createGame', { mode: 'wagered' })).error).toBe('Wagered games coming soon!');
      expect((await host.client.emit('create-bot-game', { numberOfBots: 3, maxPlayers: 3 })).error).toBe(
        'Max players must be greater than the number of bots',
      );
      expect((await host.client.emit('create-bot-game', { numberOfBots: 6 })).error).toBe(
        'Number of bots must be between 1 and 5',
      );
      const created = await host.client.emit('create-bot-game', { numberOfBots: 1, maxPlayers: 2, autoStart: false });
      const other = await player();
      expect((await other.client.emit('joinGame', { roomCode: created.data.roomCode })).error).toBe(
        LOBBY_TEXTS.gameFull,
      );
      // The one refusal the client retries a join on, by its code.
      expect(await other.client.emit('joinGame', { roomCode: 'ZZZZZZ' })).toMatchObject({
        error: LOBBY_TEXTS.gameNotFound,
        code: 'GAME_NOT_FOUND',
      });
      expect((await other.client.emit('joinGame', {})).success).toBe(false);
      await host.client.emit('leaveGame', {});
    });

    it('a lobby whose last person leaves is closed', async () => {
      const host = await player();
      const created = await host.client.emit('createGame', {});
      expect((await host.client.emit('leaveGame', {})).success).toBe(true);
      const other = await player();
      expect((await other.client.emit('joinGame', { roomCode: created.data.roomCode })).error).toBe(
        LOBBY_TEXTS.gameNotFound,
      );
    });
  });

  describe('leaving a game in play', () => {
    it('counts as a loss on the account even when it aborts the game, with no points; whole seconds round down', async () => {
      const me = await player('quitter');
      const created = await me.client.emit('create-bot-game', {
        numberOfBots: 3,
        botDifficulty: 'easy',
        maxPlayers: 4,
        gameSpeed: 'slow',
        autoStart: true,
        cardsPerPlayer: 40,
      });
      const { gameId } = created.data;
      clock.advance(1000);
      await me.client.waitFor('gameStarting');
      clock.advance(5000);
      await me.client.waitFor('gameStarted');
      // A minute and 1.6 s in: the exact duration's whole seconds are 61, not 62.
      clock.advance(61_600);
      await settle(me.client);

      expect((await me.client.emit('stopAllBots', { gameId, reason: 'returnToDashboard' })).success).toBe(true);
      const ended = await me.client.waitFor('gameEnded', (p) => p.gameId === gameId);
      expect(ended).toMatchObject({ reason: 'aborted', winner: null, durationMs: 61_600, duration: 61 });
      expect(ended.results.find((r: { playerId: string }) => r.playerId === me.user.id)).toMatchObject({
        forfeited: true,
        points: 0,
      });

      await expect
        .poll(async () => (await call(server.base, 'GET', '/game/history', { token: me.token })).body.data.games[0])
        .toMatchObject({ gameId, reason: 'aborted', won: false, duration: 61 });
      const stats = (await call(server.base, 'GET', '/game/stats', { token: me.token })).body.data.userStats;
      expect(stats).toMatchObject({ totalGames: 1, totalWins: 0, winRate: 0 });
      const meNow = (await call(server.base, 'GET', '/auth/me', { token: me.token })).body.data.user;
      expect(meNow.stats).toMatchObject({ gamesPlayed: 1, gamesWon: 0, winRate: 0, totalPoints: 0, botGamesPlayed: 1 });
    });
  });

  describe('a bot game to its end', () => {
    it('auto-starts, plays out, reveals the seed, records the game, stats and a replay that re-runs', async () => {
      const me = await player('solo');
      const created = await me.client.emit('create-bot-game', {
        numberOfBots: 1,
        botDifficulty: 'expert',
        maxPlayers: 2,
        gameSpeed: 'blitz',
        autoStart: true,
        cardsPerPlayer: 20,
      });
      expect(created.data).toMatchObject({ numberOfBots: 1, botDifficulty: 'expert' });
      const { gameId } = created.data;
      expect(created.data.game.players[1]).toMatchObject({ isBot: true, botDifficulty: 'expert', isReady: true });

      clock.advance(1000); // auto-start 1 s after everyone is ready
      await me.client.waitFor('gameStarting');
      clock.advance(5000);
      const started = await me.client.waitFor('gameStarted');
      await me.client.waitFor('handDealt');

      // The person plays a matching card every 2 s when they have one (read from the server's view:
      // the piles change by flips too, not only by plays); the expert bot is quicker.
      let ended: Record<string, unknown> | undefined;
      for (let step = 0; step < 600 && !ended; step += 1) {
        await settle(me.client);
        await playOne(me.client);
        clock.advance(2000);
        ended = me.client.all('gameEnded')[0];
      }
      const final: Record<string, unknown> = ended ?? (await me.client.waitFor('gameEnded'));
      expect(final).toMatchObject({ gameId, reason: 'win' });
      expect(
        createHash('sha256')
          .update(final.seed as string)
          .digest('hex'),
      ).toBe(started.seedCommitment);
      const results = final.results as { playerId: string; place: number; points: number }[];
      expect(results.map((r) => r.place)).toEqual([1, 2]);

      // The record lands in one transaction shortly after.
      await expect
        .poll(async () => (await call(server.base, 'GET', '/game/history', { token: me.token })).body.data.total)
        .toBe(1);
      const mine = results.find((r) => r.playerId === me.user.id)!;
      const meNow = (await call(server.base, 'GET', '/auth/me', { token: me.token })).body.data.user;
      expect(meNow.stats).toMatchObject({ gamesPlayed: 1, totalPoints: mine.points, botGamesPlayed: 1 });
      expect(meNow.achievements.map((a: { id: string }) => a.id)).toContain('firstGame');

      const replay = (await call(server.base, 'GET', `/game/${gameId}/replay`, { token: me.token })).body.data;
      expect(replay.seed).toBe(final.seed);
      let state = createGame(replay.config);
      for (const { at, command } of replay.commands) {
        state = advance(state, at).state;
        const result = apply(state, command, at);
        expect(result.ok).toBe(true);
        state = result.state;
      }
      state = advance(state, state.endsAt).state;
      expect(state.result?.ranking.map((r) => [r.playerId, r.place, r.points])).toEqual(
        results.map((r) => [r.playerId, r.place, r.points]),
      );
    }, 120_000);
  });
});
