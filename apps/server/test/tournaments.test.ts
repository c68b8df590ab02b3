/**
 * Tournaments over real HTTP with the clock driven by hand: creation rules and texts, roles, status
 * at its boundaries, joining, and payouts that happen exactly once. (Standings, and a player's own
 * standing with the reason each uncounted game did not count, are in tournament-standings.test.ts;
 * payouts across a restart and across two servers on one database in tournament-payouts.test.ts.)
 */
import { randomUUID } from 'node:crypto';
import { REFUSAL_TEXTS, TOURNAMENT_TEXTS } from '@memeslam/protocol';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { users, walletLedger } from '../src/db/schema.ts';
import { type Booted, DATABASE_MODES, call, newAccount } from './helpers/boot.ts';
import { HOUR, tournamentServer } from './helpers/tournaments.ts';

describe.each(DATABASE_MODES)('tournaments on %s', (mode) => {
  const fixture = tournamentServer(mode);
  const { clock, account, person, at, body, create, recordGame } = fixture;
  let server: Booted;
  let admin: string;
  beforeAll(() => {
    ({ server, admin } = fixture.current());
  });

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

  it('a people-only tournament needs a verified e-mail: an unverified account and a just-upgraded guest are refused (docs/fair-play.md)', async () => {
    const people = await create({ startDate: at(0), endDate: at(HOUR), allowBots: false });
    const withBots = await create({ startDate: at(0), endDate: at(HOUR), allowBots: true });
    const unverified = await person(server, { verified: false });
    const refused = await call(server.base, 'POST', `/tournaments/${people.id}/join`, { token: unverified.token });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      success: false,
      message: TOURNAMENT_TEXTS.verifiedEmailRequired,
      code: 'TOURNAMENT_EMAIL_UNVERIFIED',
    });
    expect(REFUSAL_TEXTS.TOURNAMENT_EMAIL_UNVERIFIED).toBe(TOURNAMENT_TEXTS.verifiedEmailRequired);
    // Where bots count too, no e-mail check: nothing changes for those tournaments.
    expect(
      (await call(server.base, 'POST', `/tournaments/${withBots.id}/join`, { token: unverified.token })).status,
    ).toBe(200);

    // A guest upgraded a moment ago holds an unverified account: refused as well.
    const demo = await call(server.base, 'POST', '/auth/demo');
    const upgraded = await call(server.base, 'POST', '/auth/upgrade', {
      token: demo.body.data.token,
      body: newAccount('upgraded'),
    });
    expect(upgraded.status).toBeLessThan(300);
    const upgradedToken = (upgraded.body.data?.token as string | undefined) ?? (demo.body.data.token as string);
    const asUpgraded = await call(server.base, 'POST', `/tournaments/${people.id}/join`, { token: upgradedToken });
    expect(asUpgraded.status).toBe(403);
    expect(asUpgraded.body.code).toBe('TOURNAMENT_EMAIL_UNVERIFIED');

    // Verified, the same account joins.
    await server.app.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, unverified.id));
    expect(
      (await call(server.base, 'POST', `/tournaments/${people.id}/join`, { token: unverified.token })).status,
    ).toBe(200);
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
