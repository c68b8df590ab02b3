/**
 * Tournaments (DESIGN §5): status follows the clock, standings are computed from the games finished
 * inside the window, and when a tournament ends its winners are paid exactly once — the database
 * decides who pays (a conditional update in the payout's own transaction), so a restart or a second
 * server process cannot pay twice.
 */
import {
  type ScoringMethod,
  TOURNAMENT_MIN_GAME_DURATION_MS,
  TOURNAMENT_TEXTS,
  type Tournament,
  type TournamentDraft,
  type TournamentLeaderboardEntry,
  type TournamentStatus,
  winRatePercent,
} from '@memeslam/protocol';
import { and, asc, count, eq, gte, inArray, isNull, lte, ne, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock, Timer } from '../clock.ts';
import type { Db } from '../db/client.ts';
import { gamePlayers, games, tournamentParticipants, tournaments, users, walletLedger } from '../db/schema.ts';
import { badRequest, conflict, forbidden, notFound } from '../http/errors.ts';
import { isUuid, type UserRow } from '../users/repository.ts';

type Row = typeof tournaments.$inferSelect;
/** What the `settings` column holds: the draft's pool, rules and featured flag. */
interface Stored {
  prizePool: TournamentDraft['prizePool'];
  settings: TournamentDraft['settings'];
  isFeatured: boolean;
}

/** Periodic check for tournaments that ended while no timer was armed (another node, a restart). */
const SETTLE_EVERY_MS = 60_000;

export function statusAt(row: Pick<Row, 'startDate' | 'endDate'>, now: number): TournamentStatus {
  if (now < row.startDate.getTime()) return 'upcoming';
  if (now < row.endDate.getTime()) return 'active';
  return 'ended';
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

export class TournamentService {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #log: FastifyBaseLogger;
  #timer: Timer | null = null;
  readonly #interval: NodeJS.Timeout;
  #settling: Promise<void> | null = null;

  constructor(deps: { db: Db; clock: Clock; log: FastifyBaseLogger }) {
    this.#db = deps.db;
    this.#clock = deps.clock;
    this.#log = deps.log;
    this.#interval = setInterval(() => void this.settle(), SETTLE_EVERY_MS);
    this.#interval.unref();
  }

  async create(draft: TournamentDraft, createdBy: string): Promise<Tournament> {
    const stored: Stored = { prizePool: draft.prizePool, settings: draft.settings, isFeatured: draft.isFeatured };
    const [row] = await this.#db
      .insert(tournaments)
      .values({
        name: draft.name,
        description: draft.description,
        startDate: new Date(draft.startDate),
        endDate: new Date(draft.endDate),
        settings: stored as unknown as Record<string, unknown>,
        createdBy,
      })
      .returning();
    await this.arm();
    return this.#present(row as Row, 0, undefined);
  }

  async list(viewerId: string | undefined): Promise<Tournament[]> {
    const rows = await this.#db.select().from(tournaments).orderBy(asc(tournaments.startDate), asc(tournaments.id));
    return Promise.all(rows.map((row) => this.#withCounts(row, viewerId)));
  }

  /** The one the leaderboard tab shows: featured first, then active before upcoming, then the soonest. */
  async current(viewerId: string | undefined): Promise<Tournament | null> {
    const now = this.#clock.now();
    const rows = (await this.#db.select().from(tournaments)).filter((r) => statusAt(r, now) !== 'ended');
    const rank = (r: Row) => [
      (r.settings as unknown as Stored).isFeatured ? 0 : 1,
      statusAt(r, now) === 'active' ? 0 : 1,
      statusAt(r, now) === 'active' ? r.endDate.getTime() : r.startDate.getTime(),
    ];
    rows.sort((a, b) => {
      const [ra, rb] = [rank(a), rank(b)];
      for (let i = 0; i < ra.length; i += 1) if (ra[i] !== rb[i]) return (ra[i] as number) - (rb[i] as number);
      return a.id.localeCompare(b.id);
    });
    const first = rows[0];
    return first ? this.#withCounts(first, viewerId) : null;
  }

  async join(user: UserRow, id: string): Promise<Tournament> {
    if (user.isGuest) throw forbidden(TOURNAMENT_TEXTS.guestsCannotJoin);
    return this.#db.transaction(async (tx) => {
      // The row lock makes concurrent joins take turns, so maxParticipants holds.
      const [row] = isUuid(id) ? await tx.select().from(tournaments).where(eq(tournaments.id, id)).for('update') : [];
      if (!row) throw notFound(TOURNAMENT_TEXTS.notFound);
      const stored = row.settings as unknown as Stored;
      if (statusAt(row, this.#clock.now()) === 'ended') throw badRequest(TOURNAMENT_TEXTS.hasEnded);
      if (stored.settings.requireVerifiedSolana && !user.solanaAddress) {
        throw forbidden(TOURNAMENT_TEXTS.verifiedWalletRequired);
      }
      const [joined] = await tx
        .select({ n: count() })
        .from(tournamentParticipants)
        .where(and(eq(tournamentParticipants.tournamentId, id), eq(tournamentParticipants.userId, user.id)));
      if ((joined?.n ?? 0) > 0) throw conflict(TOURNAMENT_TEXTS.alreadyJoined);
      const participants = await this.#participantCount(tx, id);
      const max = stored.settings.maxParticipants;
      if (max !== null && participants >= max) throw badRequest(TOURNAMENT_TEXTS.full);
      await tx.insert(tournamentParticipants).values({ tournamentId: id, userId: user.id });
      return this.#present(row, participants + 1, true);
    });
  }

  async leaderboard(id: string): Promise<TournamentLeaderboardEntry[]> {
    const [row] = isUuid(id) ? await this.#db.select().from(tournaments).where(eq(tournaments.id, id)) : [];
    if (!row) throw notFound(TOURNAMENT_TEXTS.notFound);
    return this.#standings(this.#db, row);
  }

  /** Arms one timer at the next end date still to be paid out. */
  async arm(): Promise<void> {
    const [next] = await this.#db
      .select({ endDate: tournaments.endDate })
      .from(tournaments)
      .where(isNull(tournaments.paidOutAt))
      .orderBy(asc(tournaments.endDate))
      .limit(1);
    this.#timer?.cancel();
    this.#timer = next ? this.#clock.at(next.endDate.getTime(), () => void this.settle()) : null;
  }

  /** Pays every tournament that has ended and is not paid yet; one payout at a time in this process. */
  settle(): Promise<void> {
    this.#settling ??= this.#payDue()
      .catch((error: unknown) => this.#log.error({ err: error }, 'tournament payout failed; will retry'))
      .finally(() => {
        this.#settling = null;
      });
    return this.#settling;
  }

  close(): void {
    clearInterval(this.#interval);
    this.#timer?.cancel();
  }

  async #payDue(): Promise<void> {
    const now = new Date(this.#clock.now());
    const due = await this.#db
      .select({ id: tournaments.id })
      .from(tournaments)
      .where(and(isNull(tournaments.paidOutAt), lte(tournaments.endDate, now)));
    for (const { id } of due) await this.#payOut(id, now);
    await this.arm();
  }

  /**
   * Exactly once: the conditional update claims the payout inside the transaction that writes the
   * ledger. A concurrent claimer waits on the row and then finds it paid; a crash rolls both back.
   * The ledger's unique (user, kind, reference) is a second guard.
   */
  async #payOut(id: string, now: Date): Promise<void> {
    await this.#db.transaction(async (tx) => {
      const [claimed] = await tx
        .update(tournaments)
        .set({ paidOutAt: now })
        .where(and(eq(tournaments.id, id), isNull(tournaments.paidOutAt)))
        .returning();
      if (!claimed) return;
      const stored = claimed.settings as unknown as Stored;
      const winners = (await this.#standings(tx, claimed)).filter((e) => e.isPrizeWinner && e.prizeAmount !== null);
      if (winners.length === 0) return;
      await tx
        .insert(walletLedger)
        .values(
          winners.map((w) => ({
            userId: w.userId,
            currency: stored.prizePool.currency,
            amount: String(w.prizeAmount),
            kind: 'tournamentPrize',
            reference: id,
          })),
        )
        .onConflictDoNothing();
      this.#log.info({ tournamentId: id, winners: winners.length }, 'tournament paid out');
    });
  }

  async #participantCount(db: Db, id: string): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(tournamentParticipants)
      .where(eq(tournamentParticipants.tournamentId, id));
    return row?.n ?? 0;
  }

  async #withCounts(row: Row, viewerId: string | undefined): Promise<Tournament> {
    const participants = await this.#participantCount(this.#db, row.id);
    let joined: boolean | undefined;
    if (viewerId) {
      const [mine] = await this.#db
        .select({ n: count() })
        .from(tournamentParticipants)
        .where(and(eq(tournamentParticipants.tournamentId, row.id), eq(tournamentParticipants.userId, viewerId)));
      joined = (mine?.n ?? 0) > 0;
    }
    return this.#present(row, participants, joined);
  }

  #present(row: Row, participantCount: number, isJoined: boolean | undefined): Tournament {
    const now = this.#clock.now();
    const stored = row.settings as unknown as Stored;
    return {
      id: row.id,
      name: row.name,
      description: row.description,
      status: statusAt(row, now),
      startDate: row.startDate.toISOString(),
      endDate: row.endDate.toISOString(),
      timeRemaining: Math.max(0, row.endDate.getTime() - now),
      startsIn: Math.max(0, row.startDate.getTime() - now),
      participantCount,
      prizePool: { ...stored.prizePool, distribution: [...stored.prizePool.distribution] },
      settings: stored.settings,
      isFeatured: stored.isFeatured,
      ...(isJoined !== undefined ? { isJoined } : {}),
      createdAt: row.createdAt.toISOString(),
    };
  }

  /**
   * Standings from the games that count (DESIGN §5): finished inside the window, at least 30 s, not
   * aborted, bot games only when allowed. A participant ranks once they have minGamesRequired games;
   * those who have not yet follow, unranked for prizes. Ties: more games won, then more games, then
   * who joined first.
   */
  async #standings(db: Db, row: Row): Promise<TournamentLeaderboardEntry[]> {
    const stored = row.settings as unknown as Stored;
    const rules = stored.settings;
    const people = await db
      .select({ userId: tournamentParticipants.userId, joinedAt: tournamentParticipants.joinedAt })
      .from(tournamentParticipants)
      .where(eq(tournamentParticipants.tournamentId, row.id));
    if (people.length === 0) return [];
    const ids = people.map((p) => p.userId);
    const counted = [
      inArray(gamePlayers.userId, ids),
      eq(games.status, 'finished'),
      ne(games.endReason, 'aborted'),
      gte(games.finishedAt, row.startDate),
      lte(games.finishedAt, row.endDate),
      gte(games.durationMs, TOURNAMENT_MIN_GAME_DURATION_MS),
      ...(rules.allowBots ? [] : [eq(games.isBotGame, false)]),
    ];
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
      .where(and(...counted))
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
    const prizes = stored.prizePool.distribution;
    return [...ranked, ...unranked].map((s, index) => {
      const isRanked = index < ranked.length;
      const prize = isRanked ? prizes.find((p) => p.position === index + 1) : undefined;
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
}
