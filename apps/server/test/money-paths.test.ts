/**
 * Money paths over real HTTP: prize amounts are bounded by the protocol schema
 * (1e12 is refused with a clear message), stored and paid as exact decimals (numeric columns: 0.1 +
 * 0.2 is 0.3 from the form to the wallet), and payouts are isolated — one tournament whose payout
 * fails is recorded, shown to admins and retried, and never holds up another, which is still paid
 * exactly once. The migration that moved the amounts into numeric columns keeps existing rows. Every
 * admin action (a tournament created, a tournament paid out) leaves an admin-audit row written in the
 * action's transaction, which staff read newest first (docs/security.md).
 */
import {
  TOURNAMENT_TEXTS,
  adminAuditDataSchema,
  adminStatsSchema,
  tournamentSchema,
  userSchema,
} from '@memeslam/protocol';
import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.ts';
import { adminAudit, gamePlayers, games, tournaments, users, walletLedger } from '../src/db/schema.ts';
import { migrateTo, migrationTags } from '../src/db/client.ts';
import { type Booted, DATABASE_MODES, boot, call, newAccount, scratchPostgres } from './helpers/boot.ts';
import { gameSettings } from './helpers/settings.ts';

const HOUR = 3_600_000;

describe.each(DATABASE_MODES)('money paths on %s', (mode) => {
  let server: Booted;
  const clock = new ManualClock();
  let admin: string;
  beforeAll(async () => {
    server = await boot(mode, {}, { clock });
    admin = await account('superadmin');
  });
  afterAll(() => server.close());

  async function account(role: 'superadmin' | 'admin' | 'moderator' | 'user' = 'user') {
    const res = await call(server.base, 'POST', '/auth/register', { body: newAccount(role.slice(0, 5)) });
    const { token, user } = res.body.data;
    if (role !== 'user') await server.app.db.update(users).set({ role }).where(eq(users.id, user.id));
    return token as string;
  }

  async function person() {
    const res = await call(server.base, 'POST', '/auth/register', { body: newAccount('payee') });
    const id = res.body.data.user.id as string;
    // People-only tournaments take accounts whose e-mail is verified, and count wins over accounts at
    // least a day old (docs/fair-play.md): these payees are.
    await server.app.db
      .update(users)
      .set({ emailVerifiedAt: new Date(), createdAt: new Date(clock.now() - 2 * 24 * HOUR) })
      .where(eq(users.id, id));
    return { token: res.body.data.token as string, id };
  }

  const at = (offsetMs: number) => new Date(clock.now() + offsetMs).toISOString();
  const body = (overrides: Record<string, unknown> = {}) => ({
    name: 'Money Slam',
    startDate: at(0),
    endDate: at(HOUR),
    currency: 'SLAM',
    totalAmount: 1000,
    winnersCount: 1,
    prizeDistribution: [{ position: 1, amount: 1000 }],
    minGamesRequired: 1,
    ...overrides,
  });

  /** A counted game won by `winner` inside the window. */
  async function win(winner: string, loser: string) {
    const id = randomUUID();
    await server.app.db.insert(games).values({
      id,
      roomCode: `M${Math.random().toString(36).slice(2, 7).toUpperCase()}`.slice(0, 6),
      status: 'finished',
      isBotGame: false,
      settings: gameSettings(),
      winnerId: winner,
      endReason: 'win',
      durationMs: 60_000,
      finishedAt: new Date(clock.now() + 60_000),
    });
    await server.app.db.insert(gamePlayers).values(
      [winner, loser].map((userId, seat) => ({
        gameId: id,
        seat,
        playerId: userId,
        userId,
        username: userId,
        isBot: false,
        place: seat + 1,
        points: seat === 0 ? 80 : 10,
      })),
    );
  }

  async function tournamentWith(overrides: Record<string, unknown>, players: { token: string }[]) {
    const res = await call(server.base, 'POST', '/tournaments', { token: admin, body: body(overrides) });
    expect(res.status).toBe(201);
    const t = tournamentSchema.parse(res.body.data.tournament);
    for (const p of players) {
      expect((await call(server.base, 'POST', `/tournaments/${t.id}/join`, { token: p.token })).status).toBe(200);
    }
    return t;
  }

  const auditOf = async (targetId: string) =>
    server.app.db
      .select({ action: adminAudit.action, actorName: adminAudit.actorName })
      .from(adminAudit)
      .where(eq(adminAudit.targetId, targetId));
  const audit = async (token: string | undefined, query = '') =>
    call(server.base, 'GET', `/auth/admin/audit${query}`, token ? { token } : {});

  it('writes an audit row with every admin action, in its transaction; staff read it newest first', async () => {
    const me = userSchema.parse((await call(server.base, 'GET', '/auth/me', { token: admin })).body.data.user);
    const created = await tournamentWith({ name: 'Audited Pot', startDate: at(0), endDate: at(HOUR) }, []);
    let page = adminAuditDataSchema.parse((await audit(admin)).body.data);
    expect(page.entries[0]).toMatchObject({
      actorId: me.id,
      actorName: me.username,
      action: 'tournament.create',
      targetId: created.id,
      details: { name: 'Audited Pot', currency: 'SLAM', totalAmount: '1000' },
    });
    // A refused creation is no action: no row.
    const before = page.total;
    const refused = await call(server.base, 'POST', '/tournaments', {
      token: admin,
      body: body({ totalAmount: 1e12 }),
    });
    expect(refused.status).toBe(422);
    expect(adminAuditDataSchema.parse((await audit(admin)).body.data).total).toBe(before);

    // The payout, by the server itself, in the payout's transaction (no winner here: still audited).
    clock.advance(HOUR);
    await server.app.tournaments.settle();
    page = adminAuditDataSchema.parse((await audit(admin)).body.data);
    expect(page.entries[0]).toMatchObject({
      actorId: null,
      actorName: 'system',
      action: 'tournament.payout',
      targetId: created.id,
      details: { currency: 'SLAM', winners: [] },
    });
    expect(page.total).toBe(before + 1);
    await server.app.tournaments.settle();
    expect((await auditOf(created.id)).map((row) => row.action).sort()).toEqual([
      'tournament.create',
      'tournament.payout',
    ]);

    // Pages: newest first, `limit` a page.
    const [first, second] = adminAuditDataSchema.parse((await audit(admin, '?limit=2')).body.data).entries;
    const secondPage = adminAuditDataSchema.parse((await audit(admin, '?limit=1&page=2')).body.data);
    expect(secondPage).toMatchObject({ page: 2, limit: 1, total: page.total });
    expect(secondPage.entries).toEqual([second]);
    expect(Date.parse(first?.createdAt ?? '')).toBeGreaterThanOrEqual(Date.parse(second?.createdAt ?? ''));
    expect((await audit(admin, '?limit=0')).status).toBe(422);

    // Who may read it: staff (an admin, a moderator too); a user gets 403, nobody signed in 401.
    expect((await audit(await account('admin'))).status).toBe(200);
    expect((await audit(await account('moderator'))).status).toBe(200);
    const user = await audit(await account('user'));
    expect(user.status).toBe(403);
    expect(user.body.success).toBe(false);
    expect((await audit(undefined)).status).toBe(401);
  });

  const credits = async (id: string) =>
    server.app.db
      .select({ userId: walletLedger.userId, amount: walletLedger.amount })
      .from(walletLedger)
      .where(eq(walletLedger.reference, id));
  const adminStats = async () => {
    const res = await call(server.base, 'GET', '/auth/admin/stats', { token: admin });
    expect(res.status).toBe(200);
    return adminStatsSchema.parse(res.body.data);
  };

  it('refuses a prize of 1e12 (pool or place) and more than 6 decimals, with a clear message', async () => {
    const refused = async (overrides: Record<string, unknown>) => {
      const res = await call(server.base, 'POST', '/tournaments', { token: admin, body: body(overrides) });
      expect(res.status).toBe(422);
      return res.body.message as string;
    };
    expect(await refused({ totalAmount: 1e12, prizeDistribution: [{ position: 1, amount: 1e12 }] })).toBe(
      TOURNAMENT_TEXTS.prizeAmountTooLarge,
    );
    expect(await refused({ totalAmount: 1e12, prizeDistribution: undefined })).toBe(
      TOURNAMENT_TEXTS.prizeAmountTooLarge,
    );
    expect(await refused({ prizePool: { totalAmount: '1000000000000' }, totalAmount: undefined })).toBe(
      TOURNAMENT_TEXTS.prizeAmountTooLarge,
    );
    expect(await refused({ totalAmount: 1000, prizeDistribution: [{ position: 1, amount: 1e12 }] })).toBe(
      TOURNAMENT_TEXTS.prizeAmountTooLarge,
    );
    expect(TOURNAMENT_TEXTS.prizeAmountTooLarge).toBe('Prize amounts can be at most 1,000,000,000');
    expect(await refused({ totalAmount: 0.1234567, prizeDistribution: undefined })).toBe(
      TOURNAMENT_TEXTS.prizeAmountPrecision,
    );
    // The largest pool is accepted, and fits the ledger.
    const res = await call(server.base, 'POST', '/tournaments', {
      token: admin,
      body: body({ totalAmount: 1e9, prizeDistribution: [{ position: 1, amount: 1e9 }] }),
    });
    expect(res.status).toBe(201);
  });

  it('stores decimal prizes exactly and pays them exactly: 0.1 + 0.2 is 0.3 in the wallet', async () => {
    const [a, b] = [await person(), await person()];
    const t = await tournamentWith(
      {
        totalAmount: 0.3,
        winnersCount: 2,
        prizeDistribution: [
          { position: 1, amount: 0.2 },
          { position: 2, amount: 0.1 },
        ],
      },
      [a, b],
    );
    expect(t.prizePool).toMatchObject({
      totalAmount: 0.3,
      distribution: [
        { position: 1, amount: 0.2 },
        { position: 2, amount: 0.1 },
      ],
    });
    const [row] = await server.app.db
      .select({ total: tournaments.prizeTotal, amounts: tournaments.prizeAmounts })
      .from(tournaments)
      .where(eq(tournaments.id, t.id));
    expect(row).toEqual({ total: '0.3', amounts: ['0.2', '0.1'] });
    // The sum rule counts in exact units: 0.1 + 0.2 against 0.3 (a float sum is 0.30000000000000004).
    const second = await tournamentWith(
      {
        endDate: at(HOUR + 1),
        totalAmount: 0.3,
        winnersCount: 2,
        prizeDistribution: [
          { position: 1, amount: 0.1 },
          { position: 2, amount: 0.2 },
        ],
      },
      [a, b],
    );
    await win(a.id, b.id);
    clock.advance(HOUR + 1);
    await server.app.tournaments.settle();
    expect((await credits(t.id)).map((c) => [c.userId, Number(c.amount)]).sort()).toEqual(
      [
        [a.id, 0.2],
        [b.id, 0.1],
      ].sort(),
    );
    // a won 0.2 and 0.1, b won 0.1 and 0.2: each wallet is the ledger's exact sum, 0.3.
    await expect.poll(async () => (await credits(second.id)).length).toBe(2);
    for (const p of [a, b]) {
      const me = (await call(server.base, 'GET', '/auth/me', { token: p.token })).body.data.user;
      expect(me.wallet).toMatchObject({ balance: 0.3, totalWon: 0.3 });
    }
  });

  it('a failing payout is shown to admins and retried, and never blocks a later tournament, paid once', async () => {
    const [a, b] = [await person(), await person()];
    const broken = await tournamentWith({ name: 'Broken Pot', startDate: at(0), endDate: at(HOUR) }, [a, b]);
    const fine = await tournamentWith({ name: 'Fine Pot', startDate: at(0), endDate: at(HOUR + 30_000) }, [a, b]);
    // A prize set before amounts were bounded: too large for the ledger's numeric(20,9) column.
    await server.app.db
      .update(tournaments)
      .set({ prizeAmounts: ['1000000000000'] })
      .where(eq(tournaments.id, broken.id));
    await win(a.id, b.id);
    const before = await paidFigures();
    // Both end; the broken one, first in line, fails when its end falls due.
    clock.advance(HOUR + 30_000);
    await server.app.tournaments.settle();
    await expect.poll(async () => (await credits(fine.id)).length).toBe(1);
    expect(await credits(broken.id)).toEqual([]);
    expect((await credits(fine.id)).map((c) => [c.userId, Number(c.amount)])).toEqual([[a.id, 1000]]);
    // The failed payout's audit row rolled back with it; the paid one has its row.
    expect((await auditOf(broken.id)).map((row) => row.action)).toEqual(['tournament.create']);
    expect((await auditOf(fine.id)).filter((row) => row.action === 'tournament.payout')).toEqual([
      { action: 'tournament.payout', actorName: 'system' },
    ]);
    const failing = (await adminStats()).failingPayouts;
    expect(failing).toEqual([
      {
        tournamentId: broken.id,
        name: 'Broken Pot',
        endDate: broken.endDate,
        error: 'numeric field overflow',
        attempts: 1,
        lastAttemptAt: broken.endDate,
      },
    ]);
    // Tried again a minute later (not on every settle), still failing: counted again.
    await server.app.tournaments.settle();
    expect((await adminStats()).failingPayouts[0]?.attempts).toBe(1);
    clock.advance(60_000);
    await server.app.tournaments.settle();
    await server.app.tournaments.settle();
    expect((await adminStats()).failingPayouts[0]).toMatchObject({
      attempts: 2,
      lastAttemptAt: new Date(clock.now()).toISOString(),
    });
    const after = await paidFigures();
    expect(after.failed - before.failed).toBe(2);
    expect(after.paid - before.paid).toBe(1);

    // Fixed: the next attempt pays it, once, and admins no longer see it.
    await server.app.db
      .update(tournaments)
      .set({ prizeAmounts: ['7.5'] })
      .where(eq(tournaments.id, broken.id));
    clock.advance(60_000);
    await Promise.all([server.app.tournaments.settle(), server.app.tournaments.settle()]);
    await server.app.tournaments.settle();
    expect((await credits(broken.id)).map((c) => [c.userId, c.amount])).toEqual([[a.id, '7.500000000']]);
    expect((await credits(fine.id)).length).toBe(1);
    expect((await adminStats()).failingPayouts).toEqual([]);
    expect((await auditOf(broken.id)).filter((row) => row.action === 'tournament.payout')).toHaveLength(1);
    const [row] = await server.app.db
      .select({ error: tournaments.payoutError })
      .from(tournaments)
      .where(eq(tournaments.id, broken.id));
    expect(row?.error).toBeNull();
  });

  /** memeslam_tournament_payouts_total from /metrics (loopback). */
  async function paidFigures() {
    const text = await (await fetch(`${server.base}/metrics`)).text();
    const value = (result: string) =>
      Number(new RegExp(`^memeslam_tournament_payouts_total\\{result="${result}"\\} (\\S+)$`, 'm').exec(text)?.[1]);
    return { paid: value('paid'), failed: value('failed') };
  }
});

describe('the migration to numeric prize columns', () => {
  it('moves existing amounts out of the settings JSON exactly, even ones too large to pay', async () => {
    // An empty database: the migrations run here, up to this one and then past it.
    const scratch = await scratchPostgres('embedded', { empty: true });
    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    const db = drizzle(client);
    try {
      // The migrations as they were before this one.
      await migrateTo(client, migrationTags().filter((tag) => tag < '0006').length);
      const settings = (totalAmount: number | string, amounts: (number | string)[]) => ({
        prizePool: {
          totalAmount,
          currency: 'SLAM',
          winnersCount: amounts.length,
          // Listed last place first: the columns follow the positions.
          distribution: amounts.map((amount, i) => ({ position: i + 1, amount })).reverse(),
        },
        settings: { minGamesRequired: 1 },
        isFeatured: true,
      });
      await db.execute(sql`
        insert into tournaments (name, start_date, end_date, settings) values
          ('Decimals', now(), now(), ${JSON.stringify(settings(0.3, [0.2, 0.1]))}::jsonb),
          ('Legacy huge', now(), now(), ${JSON.stringify(settings(1e12, [1e12]))}::jsonb)`);
      await migrateTo(client);
      const rows = await db.execute<{ name: string; prize_total: string; prize_amounts: string; settings: unknown }>(
        sql`select name, prize_total::text, prize_amounts::text, settings from tournaments order by name`,
      );
      expect(rows.rows).toEqual([
        {
          name: 'Decimals',
          prize_total: '0.3',
          prize_amounts: '{0.2,0.1}',
          settings: {
            prizePool: { currency: 'SLAM', winnersCount: 2 },
            settings: { minGamesRequired: 1 },
            isFeatured: true,
          },
        },
        {
          name: 'Legacy huge',
          prize_total: '1000000000000',
          prize_amounts: '{1000000000000}',
          settings: {
            prizePool: { currency: 'SLAM', winnersCount: 1 },
            settings: { minGamesRequired: 1 },
            isFeatured: true,
          },
        },
      ]);
    } finally {
      await client.end();
      await scratch.drop();
    }
  });
});
