/**
 * Private means private (docs/privacy.md): a game whose host turned spectators off is seen
 * only by its players and admins on every route that shows a game, and anyone else gets exactly what
 * an unknown id gets; a rematch lobby is held for the previous game's players for REMATCH_HOLD_MS
 * (on the room's clock); offerRematch works within REMATCH_OFFER_WINDOW_MS of the end and at most
 * REMATCH_OFFERS_MAX times per game, with no offer sent past either limit.
 */
import {
  LOBBY_TEXTS,
  REFUSAL_TEXTS,
  REMATCH_HOLD_MS,
  REMATCH_OFFERS_MAX,
  REMATCH_OFFER_WINDOW_MS,
  resourceNotFoundText,
} from '@memeslam/protocol';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.ts';
import { games, users } from '../src/db/schema.ts';
import { type Booted, DATABASE_MODES, boot, call } from './helpers/boot.ts';
import { botWinsSeed } from './helpers/deals.ts';
import { type Client, connect, newPerson, settle } from './helpers/sockets.ts';

const UNKNOWN_ID = '00000000-0000-0000-0000-000000000000';

/** A private bot game the bot wins alone (botWinsSeed's shape: the person, then one easy bot). */
const PRIVATE_BOT_GAME = {
  maxPlayers: 2,
  allowSpectators: false,
  autoStart: true,
  withBots: true,
  numberOfBots: 1,
  botDifficulty: 'easy',
  gameSpeed: 'fast',
  cardsPerPlayer: 20,
};

describe.each(DATABASE_MODES)('private games and rematches on %s', (mode) => {
  let server: Booted;
  const clock = new ManualClock();
  const clients: Client[] = [];
  const queued: string[] = [];
  const seeds = () => queued.shift() ?? 'e'.repeat(32);

  beforeAll(async () => {
    server = await boot(mode, {}, { clock, seeds });
  });
  afterAll(async () => {
    clients.forEach((c) => c.close());
    await server.close();
  });

  const person = (prefix: string) => newPerson(server.base, prefix, clients);

  async function staff(role: 'admin' | 'superadmin' | 'moderator') {
    const p = await person(role.slice(0, 5));
    await server.app.db.update(users).set({ role }).where(eq(users.id, p.user.id));
    return p;
  }

  /** What a route answers for a game that does not exist, status and text, for comparison. */
  async function answer(path: string, token: string) {
    const res = await call(server.base, 'GET', path, { token });
    return { status: res.status, success: res.body.success, message: res.body.message as string | undefined };
  }

  const listed = async (token: string) =>
    (await call(server.base, 'GET', '/game/active?limit=50', { token })).body.data.games.map(
      (g: { gameId: string }) => g.gameId,
    ) as string[];

  it('a game with spectators off: its player and admins see it on every route, anyone else as an unknown game', async () => {
    const owner = await person('owner');
    const outsider = await person('outsider');
    const admin = await staff('admin');
    const superadmin = await staff('superadmin');
    const moderator = await staff('moderator');
    const insiders = [owner, admin, superadmin];
    const outsiders = [outsider, moderator];

    queued.push(botWinsSeed());
    const created = await owner.client.emit('createGame', PRIVATE_BOT_GAME);
    expect(created.success).toBe(true);
    const { gameId, roomCode } = created.data as { gameId: string; roomCode: string };
    // Dealt: auto-start after a second, then the countdown.
    clock.advance(1000);
    await owner.client.waitFor('gameStarting', (p) => p.gameId === gameId);
    clock.advance(5000);
    await owner.client.waitFor('gameStarted', (p) => p.gameId === gameId);

    // Live: the lobby list, the game, its bots' status.
    const liveRoutes = [`/game/${gameId}`, `/game/${roomCode}`, `/game/bot-status/${gameId}`];
    for (const p of insiders) {
      expect(await listed(p.token)).toContain(gameId);
      for (const path of liveRoutes) expect((await answer(path, p.token)).status).toBe(200);
    }
    for (const p of outsiders) {
      expect(await listed(p.token)).not.toContain(gameId);
      expect(await answer(`/game/${gameId}`, p.token)).toEqual(await answer(`/game/${UNKNOWN_ID}`, p.token));
      expect(await answer(`/game/${roomCode}`, p.token)).toEqual(await answer('/game/QQQQ99', p.token));
      expect(await answer(`/game/bot-status/${gameId}`, p.token)).toEqual(
        await answer(`/game/bot-status/${UNKNOWN_ID}`, p.token),
      );
      expect(await answer(`/game/bot-status/${gameId}`, p.token)).toEqual({
        status: 404,
        success: false,
        message: LOBBY_TEXTS.gameNotFound,
      });
    }

    // Finished and recorded: the game, its result and its replay (seed, deal, every move).
    while (server.app.games.find(gameId)?.status === 'active') clock.advance(2000);
    await owner.client.waitFor('gameEnded', (e) => e.gameId === gameId);
    await expect
      .poll(async () => (await call(server.base, 'GET', `/game/${gameId}/replay`, { token: owner.token })).status)
      .toBe(200);
    for (const p of insiders) {
      for (const path of [`/game/${gameId}`, `/game/${gameId}/result`, `/game/${roomCode}/result`]) {
        expect((await answer(path, p.token)).status).toBe(200);
      }
      const replay = await call(server.base, 'GET', `/game/${gameId}/replay`, { token: p.token });
      expect(replay.body.data).toMatchObject({ gameId, seed: expect.any(String) });
    }
    for (const p of outsiders) {
      expect(await answer(`/game/${gameId}`, p.token)).toEqual(await answer(`/game/${UNKNOWN_ID}`, p.token));
      expect(await answer(`/game/${gameId}/result`, p.token)).toEqual(
        await answer(`/game/${UNKNOWN_ID}/result`, p.token),
      );
      expect(await answer(`/game/${roomCode}/result`, p.token)).toEqual(await answer('/game/QQQQ99/result', p.token));
      // The replay's 404 names the path asked for, exactly as for an id that never existed.
      expect(await answer(`/game/${gameId}/replay`, p.token)).toEqual({
        status: 404,
        success: false,
        message: resourceNotFoundText(`/game/${gameId}/replay`),
      });
      expect((await answer(`/game/${UNKNOWN_ID}/replay`, p.token)).message).toBe(
        resourceNotFoundText(`/game/${UNKNOWN_ID}/replay`),
      );
    }
  });

  it('a lobby with spectators off is listed to its members only; with spectators on, to everyone', async () => {
    const host = await person('host');
    const other = await person('other');
    const hidden = await host.client.emit('createGame', { maxPlayers: 3, allowSpectators: false });
    expect(await listed(host.token)).toContain(hidden.data.gameId);
    expect(await listed(other.token)).not.toContain(hidden.data.gameId);
    // Whoever holds the code (an invite) still joins, and from then on sees it.
    expect((await other.client.emit('joinGame', { roomCode: hidden.data.roomCode })).success).toBe(true);
    expect(await listed(other.token)).toContain(hidden.data.gameId);
    await other.client.emit('leaveGame', {});
    await host.client.emit('leaveGame', {});
    const open = await host.client.emit('createGame', { maxPlayers: 3 });
    expect(await listed(other.token)).toContain(open.data.gameId);
    await host.client.emit('leaveGame', {});
  });

  /** Two people finish a game (the guest leaves after a minute of play); returns them and its id. */
  async function finishedDuel(settings: Record<string, unknown> = {}) {
    const host = await person('host');
    const guest = await person('guest');
    const created = await host.client.emit('createGame', { maxPlayers: 3, ...settings });
    const gameId = created.data.gameId as string;
    await guest.client.emit('joinGame', { roomCode: created.data.roomCode });
    await host.client.emit('setPlayerReady', { isReady: true });
    await guest.client.emit('setPlayerReady', { isReady: true });
    await host.client.emit('startGame', {});
    clock.advance(5000);
    await host.client.waitFor('gameStarted', (p) => p.gameId === gameId);
    clock.advance(60_000);
    await guest.client.emit('leaveGame', {});
    await host.client.waitFor('gameEnded', (e) => e.gameId === gameId);
    await expect
      .poll(async () => (await call(server.base, 'GET', `/game/${gameId}/result`, { token: host.token })).status)
      .toBe(200);
    return { host, guest, gameId };
  }

  it("a rematch lobby is held for the previous game's players for 60 s, then opens to anyone", async () => {
    const { host, guest, gameId } = await finishedDuel();
    const stranger = await person('stranger');
    const own = await stranger.client.emit('createGame', { maxPlayers: 2 });
    expect(own.success).toBe(true);

    const offered = await host.client.emit('offerRematch', { gameId });
    expect(offered.success).toBe(true);
    const { roomCode, gameId: rematchId } = offered.data as { roomCode: string; gameId: string };

    // Over the socket and over HTTP, the stranger is refused with the hold's code and text…
    const refused = await stranger.client.emit('joinGame', { roomCode });
    expect(refused).toEqual({ success: false, error: LOBBY_TEXTS.rematchHeld, code: 'REMATCH_HELD' });
    expect(REFUSAL_TEXTS.REMATCH_HELD).toBe(LOBBY_TEXTS.rematchHeld);
    const overHttp = await call(server.base, 'POST', '/game/join', { token: stranger.token, body: { roomCode } });
    expect(overHttp).toMatchObject({ status: 403, body: { success: false, message: LOBBY_TEXTS.rematchHeld } });
    // …and is not pulled out of their own lobby by trying.
    expect(server.app.games.find(own.data.gameId)?.isMember(stranger.user.id)).toBe(true);
    expect(server.app.games.find(rematchId)?.isMember(stranger.user.id)).toBe(false);

    // Not offered to the stranger in the lobby list meanwhile; the previous players see it.
    expect(await listed(stranger.token)).not.toContain(rematchId);
    expect(await listed(guest.token)).toContain(rematchId);

    // The previous game's other player takes their seat at once.
    expect((await guest.client.emit('joinGame', { roomCode })).success).toBe(true);

    // Just before the hold ends: still refused; once it has: an ordinary lobby.
    clock.advance(REMATCH_HOLD_MS - 1000);
    expect((await stranger.client.emit('joinGame', { roomCode })).code).toBe('REMATCH_HELD');
    clock.advance(1000);
    expect(await listed(stranger.token)).toContain(rematchId);
    const joined = await stranger.client.emit('joinGame', { roomCode });
    expect(joined.success).toBe(true);
    expect(joined.data.game.players.map((p: { userId: string }) => p.userId).sort()).toEqual(
      [host.user.id, guest.user.id, stranger.user.id].sort(),
    );
    for (const p of [host, guest, stranger]) await p.client.emit('leaveGame', {});
  });

  it('the hold survives a restart and ends when it would have', async () => {
    const { host, guest, gameId } = await finishedDuel();
    const offered = await host.client.emit('offerRematch', { gameId });
    const { roomCode } = offered.data as { roomCode: string };
    clock.advance(REMATCH_HOLD_MS / 2);
    await settle(host.client);
    host.client.close();
    guest.client.close();
    await server.restart({ clock, seeds });
    const stranger = await person('stranger');
    expect((await stranger.client.emit('joinGame', { roomCode })).code).toBe('REMATCH_HELD');
    const back = await connect(server.base, host.token);
    clients.push(back);
    clock.advance(REMATCH_HOLD_MS / 2);
    expect((await stranger.client.emit('joinGame', { roomCode })).success).toBe(true);
    await stranger.client.emit('leaveGame', {});
    await back.emit('leaveGame', {});
  });

  it(`offerRematch: at most ${REMATCH_OFFERS_MAX} offers per game, one winner when two race for the last; no offer past it`, async () => {
    const { host, guest, gameId } = await finishedDuel();
    const offersTo = (p: { client: Client }) => p.client.all('rematchOffered').filter((o) => o.gameId === gameId);

    expect((await host.client.emit('offerRematch', { gameId })).success).toBe(true);
    await guest.client.waitFor('rematchOffered', (o) => o.gameId === gameId);
    expect((await guest.client.emit('offerRematch', { gameId })).success).toBe(true);
    await host.client.waitFor('rematchOffered', (o) => o.gameId === gameId);
    expect(REMATCH_OFFERS_MAX).toBe(3);

    // The third and a fourth at once, from both players: exactly one passes.
    const race = await Promise.all([
      host.client.emit('offerRematch', { gameId }),
      guest.client.emit('offerRematch', { gameId }),
    ]);
    expect(race.filter((r) => r.success)).toHaveLength(1);
    expect(race.find((r) => !r.success)).toEqual({
      success: false,
      error: LOBBY_TEXTS.rematchLimit,
      code: 'REMATCH_LIMIT',
    });
    await Promise.all([settle(host.client), settle(guest.client)]);
    const sent = offersTo(host).length + offersTo(guest).length;
    expect(sent).toBe(3);

    const past = await host.client.emit('offerRematch', { gameId });
    expect(past).toEqual({ success: false, error: LOBBY_TEXTS.rematchLimit, code: 'REMATCH_LIMIT' });
    await Promise.all([settle(host.client), settle(guest.client)]);
    expect(offersTo(host).length + offersTo(guest).length).toBe(sent);
    const [row] = await server.app.db.select({ offers: games.rematchOffers }).from(games).where(eq(games.id, gameId));
    expect(row?.offers).toBe(REMATCH_OFFERS_MAX);
    for (const p of [host, guest]) await p.client.emit('leaveGame', {});
  });

  it('offerRematch works for 5 minutes after the game, then is refused with no offer sent', async () => {
    const { host, guest, gameId } = await finishedDuel();
    clock.advance(REMATCH_OFFER_WINDOW_MS - 1000);
    expect((await host.client.emit('offerRematch', { gameId })).success).toBe(true);
    await guest.client.waitFor('rematchOffered', (o) => o.gameId === gameId);
    await host.client.emit('leaveGame', {});

    clock.advance(1000);
    const late = await guest.client.emit('offerRematch', { gameId });
    expect(late).toEqual({ success: false, error: LOBBY_TEXTS.rematchExpired, code: 'REMATCH_EXPIRED' });
    await Promise.all([settle(host.client), settle(guest.client)]);
    expect(host.client.all('rematchOffered').filter((o) => o.gameId === gameId)).toHaveLength(0);
    expect(guest.client.all('rematchOffered').filter((o) => o.gameId === gameId)).toHaveLength(1);
    // A refusal costs nothing: the one offer made is the one counted.
    const [row] = await server.app.db.select({ offers: games.rematchOffers }).from(games).where(eq(games.id, gameId));
    expect(row?.offers).toBe(1);
  });
});
