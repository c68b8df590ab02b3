/**
 * Tournaments over real HTTP with the clock driven by hand: creation rules and texts, roles, status
 * at its boundaries, joining, standings for each scoring method with the games that do not count,
 * a player's own standing with the reason each uncounted game did not count, and payouts that happen exactly once — across a restart and across two servers on one database.
 */
import { randomUUID } from 'node:crypto';
import { TOURNAMENT_TEXTS, tournamentSchema, tournamentStandingSchema } from '@memeslam/protocol';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.ts';
import { gamePlayers, games, users, walletLedger } from '../src/db/schema.ts';
import { type Booted, DATABASE_MODES, boot, call, newAccount } from './helpers/boot.ts';
import { gameSettings } from './helpers/settings.ts';

const HOUR = 3_600_000;

describe.each(DATABASE_MODES)('tournaments on %s', (mode) => {
  let server: Booted;
  const clock = new ManualClock();
  let admin: string;
  beforeAll(async () => {
    server = await boot(mode, {}, { clock });
    admin = await account('superadmin');
  });
  afterAll(() => server.close());

  async function account(role: 'superadmin' | 'admin' | 'user' = 'user', target: Booted = server) {
    const res = await call(target.base, 'POST', '/auth/register', { body: newAccount(role.slice(0, 5)) });
    const { token, user } = res.body.data;
    if (role !== 'user') await target.app.db.update(users).set({ role }).where(eq(users.id, user.id));
    return token as string;
  }

  async function person(target: Booted = server) {
    const res = await call(target.base, 'POST', '/auth/register', { body: newAccount('entrant') });
    return { token: res.body.data.token as string, id: res.body.data.user.id as string };
  }

  const at = (offsetMs: number) => new Date(clock.now() + offsetMs).toISOString();
  const body = (overrides: Record<string, unknown> = {}) => ({
    name: 'Weekend Slam',
    description: 'Fast games, big pots',
    startDate: at(HOUR),
    endDate: at(2 * HOUR),
    currency: 'SLAM',
    totalAmount: 1000,
    winnersCount: 3,
    prizeDistribution: [
      { position: 1, amount: 500 },
      { position: 2, amount: 300 },
      { position: 3, amount: 200 },
    ],
    maxParticipants: null,
    minGamesRequired: 1,
    scoringMethod: 'totalPoints',
    allowBots: false,
    requireVerifiedSolana: false,
    isFeatured: false,
    ...overrides,
  });
  async function create(overrides: Record<string, unknown> = {}, token = admin) {
    const res = await call(server.base, 'POST', '/tournaments', { token, body: body(overrides) });
    expect(res.status).toBe(201);
    return tournamentSchema.parse(res.body.data.tournament);
  }

  /** A finished game in the books, as the game service would have recorded it. */
  async function recordGame(
    target: Booted,
    seats: { userId: string | null; points: number; bot?: boolean }[],
    options: { winner?: string | null; finishedAt: number; durationMs?: number; reason?: string; bot?: boolean },
  ) {
    const id = randomUUID();
    await target.app.db.insert(games).values({
      id,
      roomCode: `T${Math.random().toString(36).slice(2, 7).toUpperCase()}`.slice(0, 6),
      status: 'finished',
      isBotGame: options.bot ?? false,
      settings: gameSettings(),
      winnerId: options.winner ?? null,
      endReason: options.reason ?? 'win',
      durationMs: options.durationMs ?? 60_000,
      finishedAt: new Date(options.finishedAt),
    });
    await target.app.db.insert(gamePlayers).values(
      seats.map((s, seat) => ({
        gameId: id,
        seat,
        playerId: s.userId ?? `bot-${seat}`,
        userId: s.userId,
        username: s.userId ?? 'bot',
        isBot: s.bot ?? false,
        place: seat + 1,
        points: s.points,
      })),
    );
  }

  describe('creation', () => {
    it('superadmin only: 401 signed out, 403 for users and admins', async () => {
      expect((await call(server.base, 'POST', '/tournaments', { body: body() })).status).toBe(401);
      for (const role of ['user', 'admin'] as const) {
        const res = await call(server.base, 'POST', '/tournaments', { token: await account(role), body: body() });
        expect(res.status).toBe(403);
        expect(res.body.message).toBe('Access denied');
      }
    });

    it('creates with every field of the Tournament entity', async () => {
      const t = await create({ name: '  Spaced  ', maxParticipants: '', isFeatured: true });
      expect(t).toMatchObject({
        name: 'Spaced',
        status: 'upcoming',
        startsIn: HOUR,
        timeRemaining: 2 * HOUR,
        participantCount: 0,
        prizePool: { totalAmount: 1000, currency: 'SLAM', winnersCount: 3 },
        settings: { maxParticipants: null, minGamesRequired: 1, scoringMethod: 'totalPoints', allowBots: false },
        isFeatured: true,
      });
      const listed = await call(server.base, 'GET', '/tournaments', { token: admin });
      expect(listed.body.data.tournaments.map((x: { id: string }) => x.id)).toContain(t.id);
    });

    it.each([
      [{ name: '' }, TOURNAMENT_TEXTS.nameRequired],
      [{ name: undefined }, TOURNAMENT_TEXTS.nameRequired],
      [{ startDate: '' }, TOURNAMENT_TEXTS.startDateRequired],
      [{ endDate: undefined }, TOURNAMENT_TEXTS.endDateRequired],
      [{ endDate: new Date(Date.UTC(2025, 0, 1)).toISOString() }, TOURNAMENT_TEXTS.endAfterStart],
      [{ totalAmount: 0, prizeDistribution: undefined }, TOURNAMENT_TEXTS.prizeAmountRequired],
      [{ totalAmount: -5, prizeDistribution: undefined }, TOURNAMENT_TEXTS.prizeAmountRequired],
      [
        {
          prizeDistribution: [
            { position: 1, amount: 500 },
            { position: 2, amount: 300 },
            { position: 3, amount: 100 },
          ],
        },
        TOURNAMENT_TEXTS.prizeDistributionMismatch,
      ],
      [{ minGamesRequired: 0 }, TOURNAMENT_TEXTS.minGamesRequired],
      [{ maxParticipants: 1 }, TOURNAMENT_TEXTS.maxParticipants],
      [{ startDate: 'next tuesday' }, TOURNAMENT_TEXTS.invalidDate],
    ])('refuses %j with "%s" and stores nothing', async (overrides, message) => {
      const before = (await call(server.base, 'GET', '/tournaments', { token: admin })).body.data.tournaments.length;
      const res = await call(server.base, 'POST', '/tournaments', { token: admin, body: body(overrides) });
      expect(res.status).toBe(422);
      expect(res.body.errors.map((e: { message: string }) => e.message)).toContain(message);
      const after = (await call(server.base, 'GET', '/tournaments', { token: admin })).body.data.tournaments.length;
      expect(after).toBe(before);
    });

    it('refuses wrong types and unknown values with 422', async () => {
      for (const overrides of [
        { scoringMethod: 'fastest' },
        { currency: 'BTC' },
        { allowBots: 'yes' },
        { winnersCount: 'many' },
        { prizeDistribution: 'half' },
        { extra: true },
      ]) {
        expect((await call(server.base, 'POST', '/tournaments', { token: admin, body: body(overrides) })).status).toBe(
          422,
        );
      }
    });

    it('clamps the winners count to 1–10 and splits the pool by the table when no list is sent', async () => {
      const t = await create({ winnersCount: 15, prizeDistribution: undefined, totalAmount: 1000 });
      expect(t.prizePool.winnersCount).toBe(10);
      expect(t.prizePool.distribution).toHaveLength(10);
      const two = await create({ winnersCount: 2, prizeDistribution: undefined, totalAmount: 1000 });
      expect(two.prizePool.distribution).toEqual([
        { position: 1, amount: 600 },
        { position: 2, amount: 400 },
      ]);
    });
  });

  it('status follows the clock at its boundaries', async () => {
    const t = await create({ startDate: at(HOUR), endDate: at(2 * HOUR) });
    const look = async () =>
      (await call(server.base, 'GET', '/tournaments', { token: admin })).body.data.tournaments.find(
        (x: { id: string }) => x.id === t.id,
      );
    clock.advance(HOUR - 1);
    expect(await look()).toMatchObject({ status: 'upcoming', startsIn: 1 });
    clock.advance(1);
    expect(await look()).toMatchObject({ status: 'active', startsIn: 0, timeRemaining: HOUR });
    clock.advance(HOUR - 1);
    expect((await look()).status).toBe('active');
    clock.advance(1);
    expect(await look()).toMatchObject({ status: 'ended', timeRemaining: 0 });
  });

  describe('joining', () => {
    it('joins once; refuses unknown ids, a second join, a full or ended tournament, guests, and a missing wallet', async () => {
      const t = await create({ maxParticipants: 2, startDate: at(HOUR), endDate: at(2 * HOUR) });
      const a = await person();
      const b = await person();
      const c = await person();
      const joined = await call(server.base, 'POST', `/tournaments/${t.id}/join`, { token: a.token });
      expect(joined.status).toBe(200);
      expect(joined.body.data.tournament).toMatchObject({ participantCount: 1, isJoined: true });
      const twice = await call(server.base, 'POST', `/tournaments/${t.id}/join`, { token: a.token });
      expect(twice.status).toBe(409);
      expect(twice.body.message).toBe(TOURNAMENT_TEXTS.alreadyJoined);
      expect((await call(server.base, 'POST', `/tournaments/${t.id}/join`, { token: b.token })).status).toBe(200);
      const full = await call(server.base, 'POST', `/tournaments/${t.id}/join`, { token: c.token });
      expect(full.status).toBe(400);
      expect(full.body.message).toBe(TOURNAMENT_TEXTS.full);

      for (const id of [randomUUID(), 'not-an-id']) {
        const res = await call(server.base, 'POST', `/tournaments/${id}/join`, { token: c.token });
        expect(res.status).toBe(404);
        expect(res.body.message).toBe(TOURNAMENT_TEXTS.notFound);
      }
      const guest = await call(server.base, 'POST', '/auth/demo');
      const asGuest = await call(server.base, 'POST', `/tournaments/${t.id}/join`, { token: guest.body.data.token });
      expect(asGuest.status).toBe(403);

      const wallet = await create({ requireVerifiedSolana: true });
      const noWallet = await call(server.base, 'POST', `/tournaments/${wallet.id}/join`, { token: c.token });
      expect(noWallet.status).toBe(403);
      expect(noWallet.body.message).toBe(TOURNAMENT_TEXTS.verifiedWalletRequired);
      await server.app.db.update(users).set({ solanaAddress: 'So1anaAddre55' }).where(eq(users.id, c.id));
      expect((await call(server.base, 'POST', `/tournaments/${wallet.id}/join`, { token: c.token })).status).toBe(200);

      const ended = await create({ startDate: at(-2 * HOUR), endDate: at(-HOUR) });
      const late = await call(server.base, 'POST', `/tournaments/${ended.id}/join`, { token: c.token });
      expect(late.status).toBe(400);
      expect(late.body.message).toBe(TOURNAMENT_TEXTS.hasEnded);
      expect((await call(server.base, 'POST', `/tournaments/${t.id}/join`)).status).toBe(401);
    });
  });

  describe('standings', () => {
    /** Three entrants and games around a window that starts now and lasts an hour. */
    async function field(rules: Record<string, unknown>) {
      const t = await create({ startDate: at(0), endDate: at(HOUR), minGamesRequired: 2, ...rules });
      const opens = clock.now();
      const [a, b, c] = [await person(), await person(), await person()];
      // Joined one after another (join times come from the server's clock).
      for (const p of [a, b, c]) {
        await call(server.base, 'POST', `/tournaments/${t.id}/join`, { token: p.token });
        clock.advance(1);
      }
      const inside = clock.now() + 10 * 60_000;
      // a: 2 counted games, one won, 100 + 40 points, 60 s and 120 s.
      await recordGame(
        server,
        [
          { userId: a.id, points: 100 },
          { userId: b.id, points: 20 },
        ],
        { winner: a.id, finishedAt: inside, durationMs: 60_000 },
      );
      await recordGame(
        server,
        [
          { userId: a.id, points: 40 },
          { userId: c.id, points: 90 },
        ],
        { winner: c.id, finishedAt: inside, durationMs: 120_000 },
      );
      // b: a second counted game, won, 30 s exactly.
      await recordGame(
        server,
        [
          { userId: b.id, points: 70 },
          { userId: null, points: 10 },
        ],
        { winner: b.id, finishedAt: inside, durationMs: 30_000 },
      );
      // Games that do not count: too short, aborted, before the window, a bot game (unless allowed).
      await recordGame(server, [{ userId: c.id, points: 500 }], {
        winner: c.id,
        finishedAt: inside,
        durationMs: 29_999,
      });
      await recordGame(server, [{ userId: c.id, points: 500 }], {
        winner: c.id,
        finishedAt: inside,
        reason: 'aborted',
      });
      await recordGame(server, [{ userId: c.id, points: 500 }], { winner: c.id, finishedAt: opens - 1 });
      await recordGame(
        server,
        [
          { userId: c.id, points: 300 },
          { userId: null, points: 0, bot: true },
        ],
        { winner: c.id, finishedAt: inside, bot: true },
      );
      return { t, a, b, c };
    }
    const board = async (id: string) =>
      (await call(server.base, 'GET', `/tournaments/${id}/live-leaderboard`)).body.data.leaderboard;

    it('totalPoints: sums counted games; those under minGamesRequired follow, without prizes', async () => {
      const { t, a, b, c } = await field({ scoringMethod: 'totalPoints' });
      const rows = await board(t.id);
      expect(rows.map((r: { userId: string }) => r.userId)).toEqual([a.id, b.id, c.id]);
      expect(rows[0]).toMatchObject({
        position: 1,
        tournamentValue: 140,
        improvement: { gamesPlayed: 2, gamesWon: 1 },
        isPrizeWinner: true,
        prizeAmount: 500,
      });
      expect(rows[1]).toMatchObject({
        position: 2,
        tournamentValue: 90,
        improvement: { gamesPlayed: 2, gamesWon: 1 },
        prizeAmount: 300,
      });
      expect(rows[2]).toMatchObject({
        position: 3,
        tournamentValue: 90,
        improvement: { gamesPlayed: 1, gamesWon: 1 },
        isPrizeWinner: false,
        prizeAmount: null,
      });
    });

    it('allowBots counts bot games; gamesWon, winRate and averageTime (lower first) rank accordingly', async () => {
      const bots = await field({ scoringMethod: 'gamesWon', allowBots: true });
      const rows = await board(bots.t.id);
      expect(rows[0]).toMatchObject({
        userId: bots.c.id,
        tournamentValue: 2,
        improvement: { gamesPlayed: 2, gamesWon: 2 },
      });

      const rate = await field({ scoringMethod: 'winRate' });
      const rateRows = await board(rate.t.id);
      expect(rateRows.slice(0, 2).map((r: { tournamentValue: number }) => r.tournamentValue)).toEqual([50, 50]);
      // Equal rates: more games won, then more games, then who joined first.
      expect(rateRows[0].userId).toBe(rate.a.id);

      const time = await field({ scoringMethod: 'averageTime' });
      const timeRows = await board(time.t.id);
      expect(timeRows[0]).toMatchObject({ userId: time.b.id, tournamentValue: 45 });
      expect(timeRows[1]).toMatchObject({ userId: time.a.id, tournamentValue: 90 });
    });

    it('an unknown tournament has no leaderboard', async () => {
      expect((await call(server.base, 'GET', `/tournaments/${randomUUID()}/live-leaderboard`)).status).toBe(404);
    });
  });

  describe("a player's own standing", () => {
    const standing = async (id: string, token: string) => {
      const res = await call(server.base, 'GET', `/tournaments/${id}/me`, { token });
      expect(res.status).toBe(200);
      return tournamentStandingSchema.parse(res.body.data.standing);
    };
    const reasons = async (id: string, token: string) =>
      (await standing(id, token)).recentUncounted.map((g) => g.reason);

    it('signed in only; unknown tournaments are 404; before joining it is empty', async () => {
      const t = await create({ startDate: at(0), endDate: at(HOUR), minGamesRequired: 3 });
      expect((await call(server.base, 'GET', `/tournaments/${t.id}/me`)).status).toBe(401);
      const p = await person();
      for (const id of [randomUUID(), 'nope']) {
        const res = await call(server.base, 'GET', `/tournaments/${id}/me`, { token: p.token });
        expect(res.status).toBe(404);
        expect(res.body.message).toBe(TOURNAMENT_TEXTS.notFound);
      }
      await recordGame(server, [{ userId: p.id, points: 50 }], { winner: p.id, finishedAt: clock.now() + 1 });
      expect(await standing(t.id, p.token)).toEqual({
        joined: false,
        position: null,
        tournamentValue: null,
        prizeAmount: null,
        gamesCounted: 0,
        gamesWon: 0,
        minGamesRequired: 3,
        recentUncounted: [],
      });
    });

    it('not ranked below minGamesRequired; then the position, value and prize of the leaderboard', async () => {
      const t = await create({ startDate: at(0), endDate: at(HOUR), minGamesRequired: 2 });
      const [a, b] = [await person(), await person()];
      for (const p of [a, b]) await call(server.base, 'POST', `/tournaments/${t.id}/join`, { token: p.token });
      expect(await standing(t.id, a.token)).toMatchObject({
        joined: true,
        position: null,
        gamesCounted: 0,
        minGamesRequired: 2,
        recentUncounted: [],
      });
      const duel = (winner: string, finishedAt: number) =>
        recordGame(
          server,
          [
            { userId: a.id, points: winner === a.id ? 100 : 10 },
            { userId: b.id, points: winner === b.id ? 60 : 10 },
          ],
          { winner, finishedAt },
        );
      await duel(a.id, clock.now() + 60_000);
      expect(await standing(t.id, a.token)).toMatchObject({
        position: null,
        gamesCounted: 1,
        gamesWon: 1,
        tournamentValue: 100,
        prizeAmount: null,
      });
      await duel(b.id, clock.now() + 120_000);
      expect(await standing(t.id, a.token)).toMatchObject({
        position: 1,
        gamesCounted: 2,
        gamesWon: 1,
        tournamentValue: 110,
        prizeAmount: 500,
      });
      expect(await standing(t.id, b.token)).toMatchObject({ position: 2, gamesCounted: 2, prizeAmount: 300 });
      const board = (await call(server.base, 'GET', `/tournaments/${t.id}/live-leaderboard`)).body.data.leaderboard;
      expect(board.map((e: { userId: string; position: number }) => [e.userId, e.position])).toEqual([
        [a.id, 1],
        [b.id, 2],
      ]);
    });

    it('names why each game did not count, newest first, and only since the last counted game', async () => {
      // Joined while upcoming: the window opens in 10 minutes and lasts an hour.
      const t = await create({ startDate: at(10 * 60_000), endDate: at(70 * 60_000), allowBots: false });
      const p = await person();
      await call(server.base, 'POST', `/tournaments/${t.id}/join`, { token: p.token });
      const start = clock.now() + 10 * 60_000;
      const solo = [{ userId: p.id, points: 40 }];
      const withBot = [
        { userId: p.id, points: 40 },
        { userId: null, points: 0, bot: true },
      ];
      await recordGame(server, solo, { winner: p.id, finishedAt: start - 60_000 });
      expect(await reasons(t.id, p.token)).toEqual(['outsideWindow']);
      await recordGame(server, solo, { winner: p.id, finishedAt: start + 60_000, durationMs: 29_999 });
      await recordGame(server, solo, { finishedAt: start + 120_000, reason: 'aborted', durationMs: 5_000 });
      // A bot game is refused for being one, however long or however it ended.
      await recordGame(server, withBot, {
        finishedAt: start + 180_000,
        reason: 'aborted',
        durationMs: 5_000,
        bot: true,
      });
      const mine = await standing(t.id, p.token);
      expect(mine.recentUncounted.map((g) => g.reason)).toEqual([
        'botsNotAllowed',
        'aborted',
        'tooShort',
        'outsideWindow',
      ]);
      expect(mine.recentUncounted[0]?.endedAt).toBe(new Date(start + 180_000).toISOString());
      expect(mine.gamesCounted).toBe(0);

      // A counted game clears the list; what comes after it is listed again.
      await recordGame(server, solo, { winner: p.id, finishedAt: start + 240_000, durationMs: 30_000 });
      expect(await standing(t.id, p.token)).toMatchObject({ gamesCounted: 1, position: 1, recentUncounted: [] });
      await recordGame(server, solo, { winner: p.id, finishedAt: start + 300_000, durationMs: 12_000 });
      expect(await reasons(t.id, p.token)).toEqual(['tooShort']);
      // After the end: outside the window.
      await recordGame(server, solo, { winner: p.id, finishedAt: start + 61 * 60_000 });
      expect(await reasons(t.id, p.token)).toEqual(['outsideWindow', 'tooShort']);
      // The leaderboard counted exactly the one game the standing did.
      const board = (await call(server.base, 'GET', `/tournaments/${t.id}/live-leaderboard`)).body.data.leaderboard;
      expect(board[0]).toMatchObject({ userId: p.id, improvement: { gamesPlayed: 1, gamesWon: 1 } });
    });

    it('lists at most five, and bot games count where they are allowed', async () => {
      const t = await create({ startDate: at(0), endDate: at(HOUR), allowBots: true });
      const p = await person();
      await call(server.base, 'POST', `/tournaments/${t.id}/join`, { token: p.token });
      for (let k = 1; k <= 7; k += 1) {
        await recordGame(server, [{ userId: p.id, points: 1 }], {
          finishedAt: clock.now() + k * 1000,
          durationMs: 1000,
        });
      }
      const mine = await standing(t.id, p.token);
      expect(mine.recentUncounted).toHaveLength(5);
      expect(mine.recentUncounted[0]?.endedAt).toBe(new Date(clock.now() + 7000).toISOString());
      await recordGame(
        server,
        [
          { userId: p.id, points: 30 },
          { userId: null, points: 0, bot: true },
        ],
        { winner: p.id, finishedAt: clock.now() + 10_000, bot: true },
      );
      expect(await standing(t.id, p.token)).toMatchObject({ gamesCounted: 1, position: 1, recentUncounted: [] });
    });
  });

  it('pays the winners once when the tournament ends; balance and totalWon are ledger sums', async () => {
    const t = await create({ startDate: at(0), endDate: at(HOUR), minGamesRequired: 1 });
    const [a, b] = [await person(), await person()];
    for (const p of [a, b]) await call(server.base, 'POST', `/tournaments/${t.id}/join`, { token: p.token });
    await recordGame(
      server,
      [
        { userId: a.id, points: 80 },
        { userId: b.id, points: 30 },
      ],
      { winner: a.id, finishedAt: clock.now() + 60_000 },
    );
    clock.advance(HOUR);
    const credits = async () => server.app.db.select().from(walletLedger).where(eq(walletLedger.reference, t.id));
    await expect.poll(async () => (await credits()).length).toBe(2);
    await server.app.tournaments.settle();
    await server.app.tournaments.settle();
    expect((await credits()).map((c) => [c.userId, Number(c.amount)]).sort()).toEqual(
      [
        [a.id, 500],
        [b.id, 300],
      ].sort(),
    );
    const me = (await call(server.base, 'GET', '/auth/me', { token: a.token })).body.data.user;
    expect(me.wallet).toMatchObject({ balance: 500, totalWon: 500 });
  });
});
