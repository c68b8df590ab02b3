/**
 * The leaderboard and the admin page's statistics, read straight from the tables: ranking, counting
 * and summing happen in SQL, so the server never loads every account to sort it.
 */
import { ADMIN_NEW_USERS_DAYS, type LeaderboardSort, USER_ROLES } from '@memeslam/protocol';
import { type SQL, type SQLWrapper, and, asc, count, desc, eq, gt, gte, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { games, tournaments, users } from '../db/schema.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The protocol's winRatePercent in SQL, bit for bit: the same IEEE double operations
 * ((won / played) * 100, then round half up as Math.round does), 0 before the first game. An exact
 * numeric round(100.0 * won / played) would disagree with the profile's figure where the double
 * falls just under a half (29 of 200 is 14.499999999999998 in JS, shown as 14).
 */
export function winRateSql(won: SQLWrapper, played: SQLWrapper): SQL<number> {
  return sql<number>`(case when ${played} > 0 then floor((${won}::float8 / ${played}) * 100 + 0.5)::int else 0 end)`;
}

const winRate = winRateSql(users.gamesWon, users.gamesPlayed);

/** A column for every sort of the protocol (the Record type makes a missing one a compile error). */
const SORT_COLUMNS: Record<LeaderboardSort, SQLWrapper> = {
  totalPoints: users.totalPoints,
  gamesWon: users.gamesWon,
  winRate,
  gamesPlayed: users.gamesPlayed,
  rating: users.rating,
};

export interface RankedRow {
  readonly id: string;
  readonly username: string;
  readonly createdAt: Date;
  readonly gamesPlayed: number;
  readonly gamesWon: number;
  readonly winRate: number;
  readonly totalPoints: number;
  readonly fastestGame: number | null;
  readonly rating: number;
  readonly ratingDeviation: number;
  readonly ratedGames: number;
}

/**
 * Who is ranked: registered accounts (guests are throwaway demo accounts, never ranked) that have
 * finished at least one game (by rating: one rated game, between people). A signup that never played has nothing to rank on and would fill the
 * board with zero rows ahead of nobody; the screen's "No players yet" empty state reads the same way.
 *
 * Order: the chosen stat descending, then totalPoints descending, gamesWon descending, the earlier
 * account first (createdAt ascending), and finally the id, so equal rows always come out in one
 * order and ranks are positions 1..n (no shared ranks).
 */
export async function leaderboardRows(db: Db, sortBy: LeaderboardSort, limit: number): Promise<RankedRow[]> {
  return db
    .select({
      id: users.id,
      username: users.username,
      createdAt: users.createdAt,
      gamesPlayed: users.gamesPlayed,
      gamesWon: users.gamesWon,
      winRate,
      totalPoints: users.totalPoints,
      fastestGame: users.fastestGame,
      rating: users.rating,
      ratingDeviation: users.ratingDeviation,
      ratedGames: users.ratedGames,
    })
    .from(users)
    .where(and(eq(users.isGuest, false), gt(sortBy === 'rating' ? users.ratedGames : users.gamesPlayed, 0)))
    .orderBy(
      desc(SORT_COLUMNS[sortBy]),
      desc(users.totalPoints),
      desc(users.gamesWon),
      asc(users.createdAt),
      asc(users.id),
    )
    .limit(limit);
}

/**
 * The board's global figures. Games are counted in the games table (finished and not aborted, as
 * the dashboard's totals count them), not summed over users, where a 4-player game would count 4
 * times. Points are summed over every account, guests included: their games are in the total too.
 */
export async function leaderboardTotals(db: Db): Promise<{ totalGamesPlayed: number; totalPointsScored: number }> {
  const [[played], [points]] = await Promise.all([
    db
      .select({ n: count() })
      .from(games)
      .where(and(eq(games.status, 'finished'), ne(games.endReason, 'aborted'))),
    db.select({ sum: sql<number>`coalesce(sum(${users.totalPoints}), 0)`.mapWith(Number) }).from(users),
  ]);
  return { totalGamesPlayed: played?.n ?? 0, totalPointsScored: points?.sum ?? 0 };
}

export type Role = (typeof USER_ROLES)[number];

export interface AdminFigures {
  readonly userStats: Record<Role, { count: number; onlineCount: number }>;
  readonly tournamentCount: number;
  readonly recentRegistrations: number;
  readonly totalUsers: number;
}

/**
 * The admin page's statistics. Users are registered accounts: guests (demo logins, one per click)
 * are left out of the role counts, online counts, total and new registrations alike, so the cards
 * add up to the total. Every role is present, with zeros when nobody holds it.
 */
export async function adminFigures(db: Db, onlineUserIds: ReadonlySet<string>, now: number): Promise<AdminFigures> {
  const registered = eq(users.isGuest, false);
  const online = [...onlineUserIds];
  const since = new Date(now - ADMIN_NEW_USERS_DAYS * DAY_MS);
  const [byRole, onlineByRole, [tournamentRow], [recentRow]] = await Promise.all([
    db.select({ role: users.role, n: count() }).from(users).where(registered).groupBy(users.role),
    online.length === 0
      ? Promise.resolve([])
      : db
          .select({ role: users.role, n: count() })
          .from(users)
          .where(and(registered, inArray(users.id, online)))
          .groupBy(users.role),
    db.select({ n: count() }).from(tournaments),
    db
      .select({ n: count() })
      .from(users)
      .where(and(registered, gte(users.createdAt, since))),
  ]);
  const userStats = Object.fromEntries(USER_ROLES.map((role) => [role, { count: 0, onlineCount: 0 }])) as Record<
    Role,
    { count: number; onlineCount: number }
  >;
  for (const row of byRole) userStats[row.role].count = row.n;
  for (const row of onlineByRole) userStats[row.role].onlineCount = row.n;
  return {
    userStats,
    tournamentCount: tournamentRow?.n ?? 0,
    recentRegistrations: recentRow?.n ?? 0,
    totalUsers: byRole.reduce((sum, row) => sum + row.n, 0),
  };
}
