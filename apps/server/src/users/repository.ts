/** Account rows. Every function takes the database or a transaction, so callers choose the boundary. */
import { isProvisional } from '@memeslam/engine';
import {
  RATING_HISTORY_GAMES,
  type User as WireUser,
  achievementsFor,
  levelFor,
  STAFF_ROLES,
  winRatePercent,
} from '@memeslam/protocol';
import { and, desc, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { prepared } from '../db/prepared.ts';
import { gamePlayers, games, replays, tokenEpoch, users, walletLedger } from '../db/schema.ts';

export type UserRow = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
export type Role = UserRow['role'];

export async function findUserById(db: Db, id: string): Promise<UserRow | null> {
  if (!isUuid(id)) return null;
  const query = prepared(db, 'user_by_id', (d) =>
    d
      .select()
      .from(users)
      .where(eq(users.id, sql.placeholder('id')))
      .limit(1),
  );
  const [row] = await query.execute({ id });
  return row ?? null;
}

/** How many times any token version has changed or an account has gone (`token_epoch`; 0 before the first). */
export async function tokenEpochOf(db: Db): Promise<number> {
  const query = prepared(db, 'token_epoch', (d) =>
    d.select({ epoch: tokenEpoch.epoch }).from(tokenEpoch).where(eq(tokenEpoch.id, 1)),
  );
  const [row] = await query.execute();
  return row?.epoch ?? 0;
}

/** The token versions of these users, by id (ids with no account are left out): one statement. */
export async function tokenVersionsOf(db: Db, ids: readonly string[]): Promise<Map<string, number>> {
  const wanted = ids.filter(isUuid);
  if (wanted.length === 0) return new Map();
  // One array parameter, not one per id: the same statement text whatever the count.
  const query = prepared(db, 'token_versions', (d) =>
    d
      .select({ id: users.id, tokenVersion: users.tokenVersion })
      .from(users)
      .where(sql`${users.id} = any(${sql.placeholder('ids')}::uuid[])`),
  );
  const rows = await query.execute({ ids: wanted });
  return new Map(rows.map((row) => [row.id, row.tokenVersion]));
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.email, email.toLowerCase())).limit(1);
  return row ?? null;
}

export async function findUserByUsername(db: Db, username: string): Promise<UserRow | null> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = ${username.toLowerCase()}`)
    .limit(1);
  return row ?? null;
}

/** Login takes an e-mail address or a username in one field. */
export function findUserByLogin(db: Db, login: string): Promise<UserRow | null> {
  return login.includes('@') ? findUserByEmail(db, login) : findUserByUsername(db, login);
}

export async function insertUser(db: Db, user: NewUser): Promise<UserRow> {
  const [row] = await db.insert(users).values(user).returning();
  return row as UserRow;
}

/** A guest's account (no password, an address under `.invalid`): one per demo session, so prepared. */
export async function insertGuest(db: Db, guest: { username: string; email: string }): Promise<UserRow> {
  const query = prepared(db, 'insert_guest', (d) =>
    d
      .insert(users)
      .values({ username: sql.placeholder('username'), email: sql.placeholder('email'), isGuest: true })
      .returning(),
  );
  const [row] = await query.execute(guest);
  return row as UserRow;
}

export async function updateUser(db: Db, id: string, changes: Partial<NewUser>): Promise<UserRow> {
  const [row] = await db
    .update(users)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  return row as UserRow;
}

/**
 * A guest becomes an account in one statement, only while it still is a guest (null otherwise: another
 * upgrade won), unverified, and with its token version raised so the guest token stops working. The
 * account's age starts now: a guest made long ago is a new account for the fair-play rules
 * (docs/fair-play.md), so guests left to age cannot be turned into qualified opponents at once.
 */
export async function promoteGuest(
  db: Db,
  id: string,
  account: { username: string; email: string; passwordHash: string },
): Promise<UserRow | null> {
  const [row] = await db
    .update(users)
    .set({
      ...account,
      isGuest: false,
      emailVerifiedAt: null,
      tokenVersion: sql`${users.tokenVersion} + 1`,
      createdAt: new Date(),
      updatedAt: new Date(),
    })
    .where(and(eq(users.id, id), eq(users.isGuest, true)))
    .returning();
  return row ?? null;
}

/** Revokes every session token issued so far. */
export async function bumpTokenVersion(db: Db, id: string): Promise<UserRow> {
  const [row] = await db
    .update(users)
    .set({ tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  return row as UserRow;
}

/**
 * Removes an account's personal data: the user row goes, and with it its link tokens, ledger and
 * tournament entries. Finished games keep the seat, anonymised (also inside their replays, whose
 * deal does not depend on player ids), so other players' results and replays stay whole.
 */
export async function deleteUser(db: Db, id: string): Promise<void> {
  const seats = await db.select().from(gamePlayers).where(eq(gamePlayers.userId, id));
  for (const seat of seats) {
    const anonymousId = `deleted-${seat.seat}`;
    await db
      .update(gamePlayers)
      // The network key goes too (docs/fair-play.md): a seat without an account counts for nobody's opponent.
      .set({ userId: null, playerId: anonymousId, username: DELETED_USERNAME, addressKey: null })
      .where(and(eq(gamePlayers.gameId, seat.gameId), eq(gamePlayers.seat, seat.seat)));
    const [replay] = await db.select().from(replays).where(eq(replays.gameId, seat.gameId));
    if (replay) {
      await db
        .update(replays)
        .set(anonymiseReplay(replay, seat.playerId, anonymousId))
        .where(eq(replays.gameId, seat.gameId));
    }
  }
  await db.delete(users).where(eq(users.id, id));
}

export const DELETED_USERNAME = 'Deleted player';

function anonymiseReplay(
  replay: typeof replays.$inferSelect,
  playerId: string,
  anonymousId: string,
): Pick<typeof replays.$inferInsert, 'config' | 'commands'> {
  const swap = (id: string) => (id === playerId ? anonymousId : id);
  const { config, commands } = replay;
  return {
    config: {
      ...config,
      seats: config.seats.map((s) => (s.id === playerId ? { ...s, id: anonymousId, username: DELETED_USERNAME } : s)),
    },
    commands: commands.map(({ at, command }) => ({
      at,
      command:
        command.type === 'usePowerUp' && command.targetPlayerId !== undefined
          ? { ...command, playerId: swap(command.playerId), targetPlayerId: swap(command.targetPlayerId) }
          : { ...command, playerId: swap(command.playerId) },
    })),
  };
}

export async function setRole(db: Db, id: string, role: Role): Promise<UserRow> {
  return updateUser(db, id, { role });
}

interface WalletTotals {
  balance: number;
  totalWon: number;
}

export async function walletTotals(db: Db, userId: string): Promise<Record<'SLAM' | 'SOL', WalletTotals>> {
  const query = prepared(db, 'wallet_totals', (d) =>
    d
      .select({
        currency: walletLedger.currency,
        balance: sql<string>`coalesce(sum(${walletLedger.amount}), 0)`,
        totalWon: sql<string>`coalesce(sum(${walletLedger.amount}) filter (where ${walletLedger.kind} = 'tournamentPrize'), 0)`,
      })
      .from(walletLedger)
      .where(eq(walletLedger.userId, sql.placeholder('userId')))
      .groupBy(walletLedger.currency),
  );
  const rows = await query.execute({ userId });
  const totals = { SLAM: { balance: 0, totalWon: 0 }, SOL: { balance: 0, totalWon: 0 } };
  for (const row of rows) totals[row.currency] = { balance: Number(row.balance), totalWon: Number(row.totalWon) };
  return totals;
}

/** The rating after each of the user's last rated games, oldest first (none read before the first). */
async function ratingHistory(db: Db, row: UserRow): Promise<number[]> {
  if (row.ratedGames === 0) return [];
  const rows = await db
    .select({ rating: gamePlayers.ratingAfter })
    .from(gamePlayers)
    .innerJoin(games, eq(games.id, gamePlayers.gameId))
    .where(and(eq(gamePlayers.userId, row.id), isNotNull(gamePlayers.ratingAfter)))
    .orderBy(desc(games.finishedAt), desc(games.id))
    .limit(RATING_HISTORY_GAMES);
  return rows.map((r) => Math.round(r.rating as number)).reverse();
}

/** The account as the client reads it (the protocol's userSchema). */
export async function presentUser(db: Db, row: UserRow): Promise<WireUser> {
  const [wallet, history] = await Promise.all([walletTotals(db, row.id), ratingHistory(db, row)]);
  const unlocked = new Map(row.achievements.map((a) => [a.id, a.unlockedAt]));
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    role: row.role,
    canAccessAdmin: (STAFF_ROLES as readonly string[]).includes(row.role),
    emailVerified: row.emailVerifiedAt !== null,
    isGuest: row.isGuest,
    stats: {
      gamesPlayed: row.gamesPlayed,
      gamesWon: row.gamesWon,
      winRate: winRatePercent(row.gamesWon, row.gamesPlayed),
      totalPoints: row.totalPoints,
      fastestGame: row.fastestGame,
      botGamesPlayed: row.botGamesPlayed,
      averageGameTime: row.gamesPlayed > 0 ? Math.round(row.totalGameSeconds / row.gamesPlayed) : 0,
    },
    rating: {
      rating: Math.round(row.rating),
      deviation: Math.round(row.ratingDeviation),
      provisional: isProvisional({ deviation: row.ratingDeviation }),
      ratedGames: row.ratedGames,
      history,
    },
    wallet: {
      balance: wallet.SLAM.balance,
      totalWon: wallet.SLAM.totalWon,
      byCurrency: wallet,
      ...(row.solanaAddress ? { solanaAddress: row.solanaAddress } : {}),
    },
    preferences: row.preferences,
    level: levelFor(row.totalPoints),
    achievements: achievementsFor(row).map((id) => ({
      id,
      unlockedAt: unlocked.get(id) ?? row.updatedAt.toISOString(),
    })),
    createdAt: row.createdAt.toISOString(),
  };
}

export function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}
