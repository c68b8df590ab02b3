/**
 * The fair-play probe (a colluder and a throwaway opponent) replayed over real HTTP and sockets behind a named proxy (TRUST_PROXY=127.0.0.1,
 * so each client's X-Forwarded-For is its address), on a clock moved by hand (docs/fair-play.md):
 * a registered player in a people-only tournament opens a private lobby, a guest made from the same
 * address (and then a one-hour-old account from the same IPv6 /64) joins, both press Ready, and the
 * other walks away. The first game is aborted (no winner, no points, no rating, no stats for the
 * stayer); the second, a forfeit won after 60 s and 5 cards, does not count either; the colluder is
 * never on the prize line and is not paid when the tournament ends.
 */
import { EARLY_LEAVE_MIN_CARDS, EARLY_LEAVE_MS } from '@memeslam/engine';
import { tournamentSchema, tournamentStandingSchema } from '@memeslam/protocol';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.ts';
import { gamePlayers, games, tournaments, users, walletLedger } from '../src/db/schema.ts';
import { type Booted, boot, call, newAccount } from './helpers/boot.ts';
import { playsAloneSeed } from './helpers/deals.ts';
import { connectFrom, from } from './helpers/forwarded.ts';
import { Client, playCards } from './helpers/sockets.ts';

const HOUR = 3_600_000;
/** The colluder's network and, within the same IPv6 /64, another address of it. */
const HOME = '2001:db8:7:7::1';
const HOME_TOO = '2001:db8:7:7:a:b:c:d';

describe('the fair-play probe: a colluder and a throwaway opponent (docs/fair-play.md)', () => {
  let server: Booted;
  const clock = new ManualClock();
  const seeds: string[] = [];
  const clients: Client[] = [];
  let tournamentId: string;
  let colluder: { token: string; id: string; client: Client };

  beforeAll(async () => {
    server = await boot(
      'embedded',
      { TRUST_PROXY: '127.0.0.1' },
      { clock, seeds: () => seeds.shift() ?? 'f'.repeat(32) },
    );
    const admin = await call(server.base, 'POST', '/auth/register', { body: newAccount('admin') });
    await server.app.db.update(users).set({ role: 'superadmin' }).where(eq(users.id, admin.body.data.user.id));
    const created = await call(server.base, 'POST', '/tournaments', {
      token: admin.body.data.token,
      body: {
        name: 'Probe Cup',
        startDate: new Date(clock.now()).toISOString(),
        endDate: new Date(clock.now() + HOUR).toISOString(),
        totalAmount: 1000,
        winnersCount: 1,
        prizeDistribution: [{ position: 1, amount: 1000 }],
        minGamesRequired: 1,
        allowBots: false,
      },
    });
    expect(created.status).toBe(201);
    tournamentId = tournamentSchema.parse(created.body.data.tournament).id;
    // The colluder: an established, verified account (the rules judge the opponents it brings).
    const res = await call(server.base, 'POST', '/auth/register', {
      body: newAccount('colluder'),
      headers: from(HOME),
    });
    const id = res.body.data.user.id as string;
    await server.app.db
      .update(users)
      .set({
        createdAt: new Date(clock.now() - 30 * 24 * HOUR),
        emailVerifiedAt: new Date(clock.now() - 29 * 24 * HOUR),
      })
      .where(eq(users.id, id));
    const joined = await call(server.base, 'POST', `/tournaments/${tournamentId}/join`, { token: res.body.data.token });
    expect(joined.status).toBe(200);
    colluder = { token: res.body.data.token, id, client: await socketFrom(res.body.data.token, HOME) };
  });
  afterAll(async () => {
    clients.forEach((c) => c.close());
    await server.close();
  });

  async function socketFrom(token: string, address: string): Promise<Client> {
    const client = await connectFrom(server.base, token, address);
    if (!(client instanceof Client)) throw new Error(`not connected: ${client}`);
    clients.push(client);
    return client;
  }

  /** The colluder's private lobby (spectators off), `other` in it, both ready, dealt and started. */
  async function privateGame(other: Client, seed: string) {
    const created = await colluder.client.emit('createGame', { maxPlayers: 2, allowSpectators: false });
    expect(created.success).toBe(true);
    expect((await other.emit('joinGame', { roomCode: created.data.roomCode })).success).toBe(true);
    await colluder.client.emit('setPlayerReady', { isReady: true });
    await other.emit('setPlayerReady', { isReady: true });
    seeds.push(seed);
    await colluder.client.emit('startGame', {});
    clock.advance(5000);
    await colluder.client.waitFor('gameStarted');
    await other.waitFor('gameStarted');
    return created.data.gameId as string;
  }

  async function recorded(gameId: string) {
    await expect
      .poll(async () => (await server.app.db.select().from(games).where(eq(games.id, gameId)))[0]?.status)
      .toBe('finished');
    const [game] = await server.app.db.select().from(games).where(eq(games.id, gameId));
    const seats = await server.app.db.select().from(gamePlayers).where(eq(gamePlayers.gameId, gameId));
    return { game: game as typeof games.$inferSelect, seats };
  }

  const standing = async () =>
    tournamentStandingSchema.parse(
      (await call(server.base, 'GET', `/tournaments/${tournamentId}/me`, { token: colluder.token })).body.data.standing,
    );
  const boardEntry = async () =>
    (await call(server.base, 'GET', `/tournaments/${tournamentId}/live-leaderboard`)).body.data.leaderboard.find(
      (e: { userId: string }) => e.userId === colluder.id,
    );
  const stats = async (id: string) =>
    (await server.app.db.select().from(users).where(eq(users.id, id)))[0] as typeof users.$inferSelect;

  it('a guest made from the same address walks away 31 s in: the game is aborted, no win, no points, no rating', async () => {
    const demo = await call(server.base, 'POST', '/auth/demo', { headers: from(HOME) });
    expect(demo.status).toBe(201);
    const guest = await socketFrom(demo.body.data.token, HOME);
    const gameId = await privateGame(guest, 'f'.repeat(32));
    clock.advance(31_000);
    expect((await guest.emit('leaveGame', {})).success).toBe(true);
    const ended = await colluder.client.waitFor('gameEnded', (e) => e.gameId === gameId);
    expect(ended).toMatchObject({ reason: 'aborted', winner: null });

    const { game, seats } = await recorded(gameId);
    expect(game).toMatchObject({ endReason: 'aborted', winnerId: null });
    const mine = seats.find((s) => s.userId === colluder.id);
    const theirs = seats.find((s) => s.userId === demo.body.data.user.id);
    expect(mine).toMatchObject({ points: 0, wasGuest: false, ratingAfter: null });
    expect(theirs).toMatchObject({ points: 0, wasGuest: true, forfeited: true });
    // One network: the seats' keys are equal (and are not the address).
    expect(mine?.addressKey).toMatch(/^[\w-]{43}$/);
    expect(theirs?.addressKey).toBe(mine?.addressKey);

    // Nothing farmed: no win, points, game or rating for the stayer, so no leaderboard row either.
    expect(await stats(colluder.id)).toMatchObject({
      gamesPlayed: 0,
      gamesWon: 0,
      totalPoints: 0,
      rating: 1500,
      ratedGames: 0,
    });
    const board = await call(server.base, 'GET', '/auth/leaderboard');
    expect(board.status).toBe(200);
    expect(board.body.data.users.map((e: { _id: string }) => e._id)).not.toContain(colluder.id);

    expect(await standing()).toMatchObject({ gamesCounted: 0, position: null, prizeAmount: null });
    expect((await standing()).recentUncounted.map((g) => g.reason)).toEqual(['aborted']);
    expect(await boardEntry()).toMatchObject({ isPrizeWinner: false, prizeAmount: null });
  });

  it('a one-hour-old account from the same /64 plays 5 cards, stays 60 s and leaves: a forfeit win that counts for nothing', async () => {
    const res = await call(server.base, 'POST', '/auth/register', {
      body: newAccount('sock'),
      headers: from(HOME_TOO),
    });
    const sockId = res.body.data.user.id as string;
    await server.app.db
      .update(users)
      .set({ createdAt: new Date(clock.now() - HOUR), emailVerifiedAt: new Date(clock.now() - HOUR) })
      .where(eq(users.id, sockId));
    const sock = await socketFrom(res.body.data.token, HOME_TOO);
    const gameId = await privateGame(sock, playsAloneSeed(1, EARLY_LEAVE_MIN_CARDS));
    await playCards(sock, EARLY_LEAVE_MIN_CARDS, []);
    clock.advance(EARLY_LEAVE_MS);
    expect((await sock.emit('leaveGame', {})).success).toBe(true);
    expect(await colluder.client.waitFor('gameEnded', (e) => e.gameId === gameId)).toMatchObject({
      reason: 'forfeit',
      winner: { userId: colluder.id },
    });

    const { game, seats } = await recorded(gameId);
    expect(game).toMatchObject({ endReason: 'forfeit', winnerId: colluder.id });
    const keys = seats.map((s) => s.addressKey);
    expect(keys[0]).toBe(keys[1]);
    expect(seats.every((s) => !s.wasGuest)).toBe(true);

    // A win, but not against a qualified opponent: the first failing rule is named.
    expect(await standing()).toMatchObject({ gamesCounted: 0, position: null, prizeAmount: null });
    expect((await standing()).recentUncounted.map((g) => g.reason)).toEqual(['opponentNewAccount', 'aborted']);
    expect(await boardEntry()).toMatchObject({ isPrizeWinner: false, prizeAmount: null });
  });

  it('the tournament ends: the colluder is not paid', async () => {
    clock.advance(HOUR);
    await server.app.tournaments.settle();
    // The payout ran (the tournament is settled) and wrote no credit.
    const [row] = await server.app.db.select().from(tournaments).where(eq(tournaments.id, tournamentId));
    expect(row?.paidOutAt).not.toBeNull();
    expect(await server.app.db.select().from(walletLedger).where(eq(walletLedger.reference, tournamentId))).toEqual([]);
    const me = (await call(server.base, 'GET', '/auth/me', { token: colluder.token })).body.data.user;
    expect(me.wallet).toMatchObject({ balance: 0, totalWon: 0 });
  });
});
