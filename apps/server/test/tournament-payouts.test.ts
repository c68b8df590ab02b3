/**
 * Tournament payouts exactly once across processes: a restart at the end on the same data
 * directory, and two servers settling at once on one PostgreSQL database; the admin audit holds one
 * payout row, written in the payout's transaction (docs/security.md).
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.ts';
import { adminAudit, gamePlayers, games, users, walletLedger } from '../src/db/schema.ts';
import { type Booted, boot, call, newAccount, scratchPostgres } from './helpers/boot.ts';
import { gameSettings } from './helpers/settings.ts';

describe('payout exactly once across processes', () => {
  it('a restart at the end does not pay twice (the embedded PostgreSQL of one data directory)', async () => {
    const clock = new ManualClock();
    const first = await boot('own', {}, { clock });
    const env = { DATA_DIR: first.config.dataDir, JWT_SECRET: first.config.jwtSecret };
    const { id } = await seedTournament(first, clock);
    await first.app.close();
    clock.advance(2 * 3_600_000);
    // The restarted server settles at boot; settling again (or another restart) pays nothing more.
    const second = await boot('own', env, { clock });
    try {
      await second.app.tournaments.settle();
      const rows = await second.app.db.select().from(walletLedger).where(eq(walletLedger.reference, id));
      expect(rows).toHaveLength(1);
      expect(Number(rows[0]?.amount)).toBe(1000);
      expect(await auditActions(second, id)).toEqual(['tournament.create', 'tournament.payout']);
    } finally {
      await second.close();
      rmSync(first.config.dataDir, { recursive: true, force: true });
    }
  });

  it('two servers on one PostgreSQL database settle at once and pay once', async () => {
    const scratch = await scratchPostgres();
    const clock = new ManualClock();
    const one = await boot('embedded', { DATABASE_URL: scratch.url }, { clock });
    const two = await boot('embedded', { DATABASE_URL: scratch.url, JWT_SECRET: one.config.jwtSecret }, { clock });
    try {
      const { id } = await seedTournament(one, clock);
      clock.advance(2 * 3_600_000);
      await Promise.all([one.app.tournaments.settle(), two.app.tournaments.settle(), one.app.tournaments.settle()]);
      const rows = await one.app.db.select().from(walletLedger).where(eq(walletLedger.reference, id));
      expect(rows).toHaveLength(1);
      expect(Number(rows[0]?.amount)).toBe(1000);
      expect(await auditActions(one, id)).toEqual(['tournament.create', 'tournament.payout']);
    } finally {
      await one.close();
      await two.close();
      await scratch.drop();
    }
  });
});

/** The admin audit's actions on a tournament, sorted. */
async function auditActions(target: Booted, id: string): Promise<string[]> {
  const rows = await target.app.db.select().from(adminAudit).where(eq(adminAudit.targetId, id));
  return rows.map((row) => row.action).sort();
}

/** A one-winner tournament of one player with one counted game, ending an hour from now. */
async function seedTournament(target: Booted, clock: ManualClock) {
  const res = await call(target.base, 'POST', '/auth/register', { body: newAccount('payee') });
  const { token, user } = res.body.data;
  // Verified: the tournament is people-only (docs/fair-play.md).
  await target.app.db
    .update(users)
    .set({ role: 'superadmin', emailVerifiedAt: new Date() })
    .where(eq(users.id, user.id));
  const created = await call(target.base, 'POST', '/tournaments', {
    token,
    body: {
      name: 'Once',
      startDate: new Date(clock.now()).toISOString(),
      endDate: new Date(clock.now() + 3_600_000).toISOString(),
      totalAmount: 1000,
      winnersCount: 1,
      minGamesRequired: 1,
    },
  });
  const id = created.body.data.tournament.id as string;
  await call(target.base, 'POST', `/tournaments/${id}/join`, { token });
  const gameId = randomUUID();
  await target.app.db.insert(games).values({
    id: gameId,
    roomCode: 'ONCE22',
    status: 'finished',
    settings: gameSettings(),
    winnerId: user.id,
    endReason: 'win',
    durationMs: 60_000,
    finishedAt: new Date(clock.now() + 60_000),
  });
  await target.app.db
    .insert(gamePlayers)
    .values({ gameId, seat: 0, playerId: user.id, userId: user.id, username: 'payee', points: 60 });
  return { id };
}
