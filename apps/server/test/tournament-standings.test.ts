/**
 * Tournament standings over real HTTP with the clock driven by hand: each scoring method with the
 * games that do not count, and a player's own standing with the reason each uncounted game did not
 * count. (Creation, joining and payouts are in tournaments.test.ts.)
 */
import { randomUUID } from 'node:crypto';
import {
  COUNTED_GAMES_PER_OPPONENT,
  OPPONENT_MIN_ACCOUNT_AGE_MS,
  TOURNAMENT_TEXTS,
  tournamentStandingSchema,
} from '@memeslam/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Booted, DATABASE_MODES, call } from './helpers/boot.ts';
import { HOUR, tournamentServer } from './helpers/tournaments.ts';

describe.each(DATABASE_MODES)('tournament standings on %s', (mode) => {
  const fixture = tournamentServer(mode);
  const { clock, person, at, create, recordGame } = fixture;
  let server: Booted;
  beforeAll(() => {
    ({ server } = fixture.current());
  });

  describe('standings', () => {
    /** Three entrants and games around a window that starts now and lasts an hour. */
    async function field(rules: Record<string, unknown>) {
      const t = await create({ startDate: at(0), endDate: at(HOUR), minGamesRequired: 2, ...rules });
      const opens = clock.now();
      const [a, b, c] = [await person(), await person(), await person()];
      // An established player who is not in the tournament (a qualified opponent).
      const d = await person();
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
          { userId: d.id, points: 10 },
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

  describe('fair play: who the game was against (docs/fair-play.md)', () => {
    const standing = async (id: string, token: string) =>
      tournamentStandingSchema.parse(
        (await call(server.base, 'GET', `/tournaments/${id}/me`, { token })).body.data.standing,
      );
    const board = async (id: string) =>
      (await call(server.base, 'GET', `/tournaments/${id}/live-leaderboard`)).body.data.leaderboard as {
        userId: string;
        improvement: { gamesPlayed: number };
        isPrizeWinner: boolean;
        prizeAmount: number | null;
      }[];
    /** A people-only tournament open now for an hour, one counted game to rank, and `p` in it. */
    async function entered() {
      const t = await create({ startDate: at(0), endDate: at(HOUR), minGamesRequired: 1 });
      const p = await person();
      expect((await call(server.base, 'POST', `/tournaments/${t.id}/join`, { token: p.token })).status).toBe(200);
      return { t, p, inside: clock.now() + 10 * 60_000 };
    }
    const won = (p: string, other: { userId: string | null; wasGuest?: boolean; addressKey?: string }) => [
      { userId: p, points: 60, addressKey: 'net-p' },
      { addressKey: 'net-other', ...other, points: 10 },
    ];

    it('numbers: a day, and 3 games per pair', () => {
      expect(OPPONENT_MIN_ACCOUNT_AGE_MS).toBe(24 * HOUR);
      expect(COUNTED_GAMES_PER_OPPONENT).toBe(3);
    });

    it('a game against a guest does not count', async () => {
      const { t, p, inside } = await entered();
      const g = await person();
      await recordGame(server, won(p.id, { userId: g.id, wasGuest: true }), { winner: p.id, finishedAt: inside });
      expect(await standing(t.id, p.token)).toMatchObject({ gamesCounted: 0, prizeAmount: null });
      expect((await standing(t.id, p.token)).recentUncounted.map((g) => g.reason)).toEqual(['opponentGuest']);
      expect(TOURNAMENT_TEXTS.uncounted.opponentGuest).toContain('guest');
    });

    it('a game against an account under a day old when it started does not count; a day and a minute does', async () => {
      const { t, p, inside } = await entered();
      const durationMs = 60_000;
      const started = inside - durationMs;
      const young = await person(server, { ageMs: clock.now() - started + 24 * HOUR - 60_000 });
      const grown = await person(server, { ageMs: clock.now() - started + 24 * HOUR + 60_000 });
      await recordGame(server, won(p.id, { userId: young.id }), { winner: p.id, finishedAt: inside, durationMs });
      expect((await standing(t.id, p.token)).recentUncounted.map((g) => g.reason)).toEqual(['opponentNewAccount']);
      await recordGame(server, won(p.id, { userId: grown.id }), { winner: p.id, finishedAt: inside + 1, durationMs });
      expect(await standing(t.id, p.token)).toMatchObject({ gamesCounted: 1, recentUncounted: [] });
    });

    it('an opponent whose account is gone (an anonymised seat) is not a qualified one', async () => {
      const { t, p, inside } = await entered();
      await recordGame(server, won(p.id, { userId: null }), { winner: p.id, finishedAt: inside });
      expect((await standing(t.id, p.token)).recentUncounted.map((g) => g.reason)).toEqual(['opponentNewAccount']);
    });

    it('a game between players on one network counts for neither; an unknown network (no key) is no match', async () => {
      const { t, p, inside } = await entered();
      const q = await person();
      await call(server.base, 'POST', `/tournaments/${t.id}/join`, { token: q.token });
      await recordGame(
        server,
        [
          { userId: p.id, points: 60, addressKey: 'same' },
          { userId: q.id, points: 10, addressKey: 'same' },
        ],
        { winner: p.id, finishedAt: inside },
      );
      for (const who of [p, q]) {
        expect((await standing(t.id, who.token)).recentUncounted.map((g) => g.reason)).toEqual(['sameNetwork']);
      }
      await recordGame(
        server,
        [
          { userId: p.id, points: 60 },
          { userId: q.id, points: 10 },
        ],
        { winner: p.id, finishedAt: inside + 1 },
      );
      expect(await standing(t.id, p.token)).toMatchObject({ gamesCounted: 1, recentUncounted: [] });
    });

    it('judges each player by their own opponents: the established player gets no count against a new one, the new one does', async () => {
      const { t, p, inside } = await entered();
      const fresh = await person(server, { ageMs: HOUR });
      await call(server.base, 'POST', `/tournaments/${t.id}/join`, { token: fresh.token });
      await recordGame(server, won(fresh.id, { userId: p.id }), { winner: fresh.id, finishedAt: inside });
      expect(await standing(t.id, fresh.token)).toMatchObject({ gamesCounted: 1 });
      expect((await standing(t.id, p.token)).recentUncounted.map((g) => g.reason)).toEqual(['opponentNewAccount']);
    });

    it('a pair counts at most 3 games per tournament (for both); other pairs and games that never counted do not use it up', async () => {
      const { t, p, inside } = await entered();
      const q = await person();
      const r = await person();
      await call(server.base, 'POST', `/tournaments/${t.id}/join`, { token: q.token });
      const duel = (finishedAt: number, durationMs = 60_000) =>
        recordGame(server, won(p.id, { userId: q.id }), { winner: p.id, finishedAt, durationMs });
      // Too short: not one of the pair's counted games.
      await duel(inside, 10_000);
      for (let k = 1; k <= 4; k += 1) await duel(inside + k * 60_000);
      await recordGame(server, won(p.id, { userId: r.id }), { winner: p.id, finishedAt: inside + 10 * 60_000 });
      expect((await standing(t.id, p.token)).gamesCounted).toBe(4);
      expect((await standing(t.id, q.token)).gamesCounted).toBe(3);
      expect((await standing(t.id, q.token)).recentUncounted.map((g) => g.reason)).toEqual(['pairLimit']);
      const rows = await board(t.id);
      expect(rows.find((e) => e.userId === q.id)?.improvement.gamesPlayed).toBe(3);
      // Another tournament counts the pair afresh.
      const next = await create({ startDate: at(0), endDate: at(HOUR), minGamesRequired: 1 });
      await call(server.base, 'POST', `/tournaments/${next.id}/join`, { token: q.token });
      expect((await standing(next.id, q.token)).gamesCounted).toBe(3);
    });

    it('bots stay governed by allowBots: a bot opponent is neither a guest nor a new account', async () => {
      const t = await create({ startDate: at(0), endDate: at(HOUR), minGamesRequired: 1, allowBots: true });
      const p = await person();
      await call(server.base, 'POST', `/tournaments/${t.id}/join`, { token: p.token });
      await recordGame(
        server,
        [
          { userId: p.id, points: 30 },
          { userId: null, points: 0, bot: true },
        ],
        { winner: p.id, finishedAt: clock.now() + 60_000, bot: true },
      );
      expect(await standing(t.id, p.token)).toMatchObject({ gamesCounted: 1, position: 1 });
    });
  });
});
