/**
 * A tournament's standings: which finished games count for it (one definition, with the
 * reason given for a game that does not), and its participants ranked by its scoring method.
 */
import {
  COUNTED_GAMES_PER_OPPONENT,
  OPPONENT_MIN_ACCOUNT_AGE_MS,
  type ScoringMethod,
  TOURNAMENT_MIN_GAME_DURATION_MS,
  type TournamentLeaderboardEntry,
  UNCOUNTED_REASONS,
  type UncountedReason,
  winRatePercent,
} from '@memeslam/protocol';
import { type SQL, and, count, eq, gte, inArray, lte, ne, sql } from 'drizzle-orm';
import { type AnyPgColumn, alias } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.ts';
import { gamePlayers, games, tournamentParticipants, users } from '../db/schema.ts';
import type { Row } from './service.ts';

type GamesTable = Record<'isBotGame' | 'finishedAt' | 'endReason' | 'durationMs', AnyPgColumn>;

/**
 * The rules about the game itself (the same for each of its players): finished inside the window,
 * not aborted, long enough, and a bot game only where bots are allowed. Over `g`: `games` or an alias.
 */
function gameRules(row: Row, g: GamesTable): Partial<Record<UncountedReason, SQL | undefined>> {
  return {
    botsNotAllowed: row.settings.settings.allowBots ? undefined : eq(g.isBotGame, false),
    outsideWindow: and(gte(g.finishedAt, row.startDate), lte(g.finishedAt, row.endDate)),
    aborted: ne(g.endReason, 'aborted'),
    tooShort: gte(g.durationMs, TOURNAMENT_MIN_GAME_DURATION_MS),
  };
}

/**
 * The other people of the seat's game (`game_players` as `o`), as SQL text over the outer query's
 * `games` and `game_players` rows: humans only, bots are governed by allowBots.
 */
const opponentSeats = sql`select 1 from ${gamePlayers} as o
  where o.game_id = ${games.id} and o.seat <> ${gamePlayers.seat} and not o.is_bot`;

/**
 * The rules about who the game was against (docs/fair-play.md): for the seat's player, every human
 * opponent must be a qualified one — not a guest when the game was played, an account (still there)
 * created at least OPPONENT_MIN_ACCOUNT_AGE_MS before the game started, and not seen from the player's
 * network (equal address keys) — and the game must be among the first COUNTED_GAMES_PER_OPPONENT games
 * of that pair that pass the game rules in this tournament (ordered by end, then id); the later ones
 * count for neither.
 */
function opponentRules(row: Row): Partial<Record<UncountedReason, SQL>> {
  const started = sql`coalesce(${games.startedAt}, ${games.finishedAt})`;
  const earlier = alias(games, 'earlier');
  const earlierPasses = Object.values(gameRules(row, earlier)).filter((c): c is SQL => c !== undefined);
  const pairGamesBefore = sql`(select count(*) from ${games} as earlier
      join ${gamePlayers} as mine on mine.game_id = ${earlier.id} and mine.user_id = ${gamePlayers.userId}
      join ${gamePlayers} as theirs on theirs.game_id = ${earlier.id} and theirs.user_id = o.user_id
      where ${earlier.status} = 'finished' and ${and(...earlierPasses.map((c) => sql`coalesce(${c}, false)`))}
        and (${earlier.finishedAt}, ${earlier.id}) < (${games.finishedAt}, ${games.id}))`;
  return {
    opponentGuest: sql`not exists (${opponentSeats} and o.was_guest)`,
    opponentNewAccount: sql`not exists (${opponentSeats} and not exists (
      select 1 from ${users} as u where u.id = o.user_id
        and u.created_at <= ${started} - make_interval(secs => ${OPPONENT_MIN_ACCOUNT_AGE_MS / 1000}::double precision)))`,
    sameNetwork: sql`not exists (${opponentSeats} and o.address_key = ${gamePlayers.addressKey})`,
    pairLimit: sql`not exists (${opponentSeats} and o.user_id is not null
      and ${pairGamesBefore} >= ${COUNTED_GAMES_PER_OPPONENT}::integer)`,
  };
}

/**
 * The rules a finished game must pass to count for a tournament (docs/fair-play.md), each
 * with the reason a player is given when it fails. This is the one definition: the standings count the
 * games that pass them all, and a player's own standing reports the first one (UNCOUNTED_REASONS order)
 * that a game failed. A NULL check counts as failed in both. The opponent rules read the seat's player
 * (`game_players` of the outer query), so they judge a game for each of its players.
 */
function countingRules(row: Row): { reason: UncountedReason; passes: SQL }[] {
  const checks: Record<UncountedReason, SQL | undefined> = {
    botsNotAllowed: undefined,
    outsideWindow: undefined,
    aborted: undefined,
    tooShort: undefined,
    opponentGuest: undefined,
    opponentNewAccount: undefined,
    sameNetwork: undefined,
    pairLimit: undefined,
    ...gameRules(row, games),
    ...opponentRules(row),
  };
  return UNCOUNTED_REASONS.flatMap((reason) => {
    const check = checks[reason];
    return check ? [{ reason, passes: sql`coalesce(${check}, false)` }] : [];
  });
}

/** A finished game that counts for the tournament, for the player of the `game_players` row joined. */
export function counts(row: Row): SQL {
  return and(eq(games.status, 'finished'), ...countingRules(row).map((r) => r.passes)) as SQL;
}

/** Why a finished game did not count for the seat's player: the first rule it fails, or NULL when it counts. */
export function uncountedReason(row: Row): SQL<UncountedReason | null> {
  const cases = countingRules(row).map((r) => sql`when not ${r.passes} then ${r.reason}::text`);
  return sql<UncountedReason | null>`(case ${sql.join(cases, sql` `)} else null end)`;
}

interface Standing {
  userId: string;
  username: string;
  joinedAt: Date;
  gamesPlayed: number;
  gamesWon: number;
  totalPoints: number;
  averageSeconds: number;
}

function valueOf(method: ScoringMethod, s: Standing): number {
  switch (method) {
    case 'totalPoints':
      return s.totalPoints;
    case 'gamesWon':
      return s.gamesWon;
    case 'winRate':
      return winRatePercent(s.gamesWon, s.gamesPlayed);
    case 'averageTime':
      return s.averageSeconds;
  }
}

/**
 * Standings from the games that count (countingRules: finished inside the window, at least 30 s,
 * not aborted, bot games only when allowed, against qualified opponents within the pair limit). A participant ranks once they have minGamesRequired games;
 * those who have not yet follow, unranked for prizes. Ties: more games won, then more games, then
 * who joined first.
 */
export async function standingsOf(db: Db, row: Row): Promise<TournamentLeaderboardEntry[]> {
  const stored = row.settings;
  const rules = stored.settings;
  const people = await db
    .select({ userId: tournamentParticipants.userId, joinedAt: tournamentParticipants.joinedAt })
    .from(tournamentParticipants)
    .where(eq(tournamentParticipants.tournamentId, row.id));
  if (people.length === 0) return [];
  const ids = people.map((p) => p.userId);
  const totals = await db
    .select({
      userId: gamePlayers.userId,
      username: sql<string>`max(${gamePlayers.username})`,
      gamesPlayed: count(),
      gamesWon: sql<number>`count(*) filter (where ${games.winnerId} = ${gamePlayers.userId})`.mapWith(Number),
      totalPoints: sql<number>`coalesce(sum(${gamePlayers.points}), 0)`.mapWith(Number),
      averageMs: sql<number>`coalesce(avg(${games.durationMs}), 0)`.mapWith(Number),
    })
    .from(gamePlayers)
    .innerJoin(games, eq(games.id, gamePlayers.gameId))
    .where(and(inArray(gamePlayers.userId, ids), counts(row)))
    .groupBy(gamePlayers.userId);
  const names = await db.select({ id: users.id, username: users.username }).from(users).where(inArray(users.id, ids));
  const nameOf = new Map(names.map((u) => [u.id, u.username]));
  const standings: Standing[] = people.map((p) => {
    const t = totals.find((x) => x.userId === p.userId);
    return {
      userId: p.userId,
      username: nameOf.get(p.userId) ?? t?.username ?? '',
      joinedAt: p.joinedAt,
      gamesPlayed: t?.gamesPlayed ?? 0,
      gamesWon: t?.gamesWon ?? 0,
      totalPoints: t?.totalPoints ?? 0,
      averageSeconds: Math.round((t?.averageMs ?? 0) / 1000),
    };
  });
  const lowerIsBetter = rules.scoringMethod === 'averageTime';
  const order = (a: Standing, b: Standing) => {
    const va = valueOf(rules.scoringMethod, a);
    const vb = valueOf(rules.scoringMethod, b);
    if (va !== vb) return lowerIsBetter ? va - vb : vb - va;
    return (
      b.gamesWon - a.gamesWon ||
      b.gamesPlayed - a.gamesPlayed ||
      a.joinedAt.getTime() - b.joinedAt.getTime() ||
      a.userId.localeCompare(b.userId)
    );
  };
  const ranked = standings.filter((s) => s.gamesPlayed >= rules.minGamesRequired).sort(order);
  const unranked = standings
    .filter((s) => s.gamesPlayed < rules.minGamesRequired)
    .sort((a, b) => b.gamesPlayed - a.gamesPlayed || a.joinedAt.getTime() - b.joinedAt.getTime());
  const prizes = row.prizeAmounts;
  return [...ranked, ...unranked].map((s, index) => {
    const isRanked = index < ranked.length;
    const prize = isRanked && index < prizes.length ? { amount: Number(prizes[index]) } : undefined;
    return {
      userId: s.userId,
      position: index + 1,
      username: s.username,
      tournamentValue: valueOf(rules.scoringMethod, s),
      improvement: { gamesPlayed: s.gamesPlayed, gamesWon: s.gamesWon },
      isPrizeWinner: prize !== undefined,
      prizeAmount: prize?.amount ?? null,
    };
  });
}
