/**
 * Tournaments: status follows the clock, standings are computed from the games finished
 * inside the window, and when a tournament ends its winners are paid exactly once — the database
 * decides who pays (a conditional update in the payout's own transaction), so a restart or a second
 * server process cannot pay twice. Prize amounts are exact decimals (numeric columns) from the form
 * to the ledger. Each tournament is paid on its own: one whose payout fails is recorded (error,
 * attempts; admins see it) and retried later, and never holds up another.
 */
import {
  RECENT_UNCOUNTED_GAMES,
  REFUSAL_TEXTS,
  type RefusalCode,
  TOURNAMENT_TEXTS,
  type Tournament,
  type TournamentDraft,
  type TournamentLeaderboardEntry,
  type TournamentStanding,
  type TournamentStatus,
  type UncountedReason,
} from '@memeslam/protocol';
import { and, asc, count, desc, eq, gt, gte, isNotNull, isNull, lte, max, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock, Timer } from '../clock.ts';
import type { Db } from '../db/client.ts';
import {
  type StoredTournamentSettings,
  gamePlayers,
  games,
  tournamentParticipants,
  tournaments,
  walletLedger,
} from '../db/schema.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../http/errors.ts';
import { isUuid, type UserRow } from '../users/repository.ts';
import { SYSTEM_ACTOR, recordAdminAction } from '../admin/audit.ts';
import { counts, standingsOf, uncountedReason } from './standings.ts';

export type Row = typeof tournaments.$inferSelect;

/** Periodic check for tournaments that ended while no timer was armed (another node, a restart). */
const SETTLE_EVERY_MS = 60_000;

/** A tournament whose last payout attempt failed, for the admin page. */
export interface FailingPayout {
  tournamentId: string;
  name: string;
  endDate: string;
  error: string;
  attempts: number;
  lastAttemptAt: string;
}

/** A failed payout is attempted again after this long. */
const PAYOUT_RETRY_MS = SETTLE_EVERY_MS;
/** How much of a failure's message is kept. */
const PAYOUT_ERROR_CHARS = 500;

export function statusAt(row: Pick<Row, 'startDate' | 'endDate'>, now: number): TournamentStatus {
  if (now < row.startDate.getTime()) return 'upcoming';
  if (now < row.endDate.getTime()) return 'active';
  return 'ended';
}

export class TournamentService {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #log: FastifyBaseLogger;
  #timer: Timer | null = null;
  readonly #interval: NodeJS.Timeout;
  #settling: Promise<void> | null = null;
  readonly #onPayout: (result: 'paid' | 'failed') => void;

  constructor(deps: {
    db: Db;
    clock: Clock;
    log: FastifyBaseLogger;
    /** Each payout attempt's outcome (for /metrics). */
    onPayout?: (result: 'paid' | 'failed') => void;
  }) {
    this.#db = deps.db;
    this.#clock = deps.clock;
    this.#log = deps.log;
    this.#onPayout = deps.onPayout ?? (() => {});
    this.#interval = setInterval(() => void this.settle(), SETTLE_EVERY_MS);
    this.#interval.unref();
  }

  /** Creates it and writes the admin audit's row in the same transaction (docs/security.md). */
  async create(draft: TournamentDraft, creator: Pick<UserRow, 'id' | 'username'>): Promise<Tournament> {
    const { currency, winnersCount, totalAmount, distribution } = draft.prizePool;
    const stored: StoredTournamentSettings = {
      prizePool: { currency, winnersCount },
      settings: draft.settings,
      isFeatured: draft.isFeatured,
    };
    const row = await this.#db.transaction(async (tx) => {
      const [inserted] = await tx
        .insert(tournaments)
        .values({
          name: draft.name,
          description: draft.description,
          startDate: new Date(draft.startDate),
          endDate: new Date(draft.endDate),
          settings: stored,
          // A number's shortest text is the decimal the admin typed (the schema bounds digits), stored exactly.
          prizeTotal: String(totalAmount),
          prizeAmounts: [...distribution].sort((a, b) => a.position - b.position).map((p) => String(p.amount)),
          createdBy: creator.id,
        })
        .returning();
      const created = inserted as Row;
      await recordAdminAction(tx, {
        actor: { id: creator.id, name: creator.username },
        action: 'tournament.create',
        targetId: created.id,
        details: {
          name: created.name,
          startDate: created.startDate.toISOString(),
          endDate: created.endDate.toISOString(),
          currency,
          totalAmount: created.prizeTotal,
        },
      });
      return created;
    });
    await this.arm();
    return this.#present(row, 0, undefined);
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
      r.settings.isFeatured ? 0 : 1,
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
      const stored = row.settings;
      if (statusAt(row, this.#clock.now()) === 'ended') throw badRequest(TOURNAMENT_TEXTS.hasEnded);
      if (stored.settings.requireVerifiedSolana && !user.solanaAddress) {
        throw forbidden(TOURNAMENT_TEXTS.verifiedWalletRequired);
      }
      // docs/fair-play.md: people-only tournaments are for accounts whose e-mail is verified.
      if (!stored.settings.allowBots && user.emailVerifiedAt === null) {
        throw new AppError(403, REFUSAL_TEXTS.TOURNAMENT_EMAIL_UNVERIFIED, {
          code: 'TOURNAMENT_EMAIL_UNVERIFIED' satisfies RefusalCode,
        });
      }
      const [joined] = await tx
        .select({ n: count() })
        .from(tournamentParticipants)
        .where(and(eq(tournamentParticipants.tournamentId, id), eq(tournamentParticipants.userId, user.id)));
      if ((joined?.n ?? 0) > 0) throw conflict(TOURNAMENT_TEXTS.alreadyJoined);
      const participants = await this.#participantCount(tx, id);
      const max = stored.settings.maxParticipants;
      if (max !== null && participants >= max) throw badRequest(TOURNAMENT_TEXTS.full);
      const joinedAt = new Date(this.#clock.now());
      await tx.insert(tournamentParticipants).values({ tournamentId: id, userId: user.id, joinedAt });
      return this.#present(row, participants + 1, true);
    });
  }

  async leaderboard(id: string): Promise<TournamentLeaderboardEntry[]> {
    return standingsOf(this.#db, await this.#find(id));
  }

  /**
   * Where one user stands: their leaderboard entry (a position once they have minGamesRequired
   * counted games) and the games since their last counted one that did not count, with the reason.
   * Only games finished since they joined or the window opened, whichever came first, are looked at.
   */
  async standing(userId: string, id: string): Promise<TournamentStanding> {
    const row = await this.#find(id);
    const { minGamesRequired } = row.settings.settings;
    const [entry] = await this.#db
      .select({ joinedAt: tournamentParticipants.joinedAt })
      .from(tournamentParticipants)
      .where(and(eq(tournamentParticipants.tournamentId, id), eq(tournamentParticipants.userId, userId)));
    if (!entry) {
      return {
        joined: false,
        position: null,
        tournamentValue: null,
        prizeAmount: null,
        gamesCounted: 0,
        gamesWon: 0,
        minGamesRequired,
        recentUncounted: [],
      };
    }
    const mine = (await standingsOf(this.#db, row)).find((e) => e.userId === userId);
    const gamesCounted = mine?.improvement.gamesPlayed ?? 0;
    const own = and(eq(gamePlayers.userId, userId), eq(games.status, 'finished'));
    const [last] = await this.#db
      .select({ at: max(games.finishedAt) })
      .from(gamePlayers)
      .innerJoin(games, eq(games.id, gamePlayers.gameId))
      .where(and(own, counts(row)));
    const floor = new Date(Math.min(entry.joinedAt.getTime(), row.startDate.getTime()));
    const since = last?.at && last.at >= floor ? gt(games.finishedAt, last.at) : gte(games.finishedAt, floor);
    const reason = uncountedReason(row);
    const uncounted = await this.#db
      .select({ gameId: games.id, endedAt: games.finishedAt, reason })
      .from(gamePlayers)
      .innerJoin(games, eq(games.id, gamePlayers.gameId))
      .where(and(own, since, sql`${reason} is not null`))
      .orderBy(desc(games.finishedAt), desc(games.id))
      .limit(RECENT_UNCOUNTED_GAMES);
    return {
      joined: true,
      position: mine && gamesCounted >= minGamesRequired ? mine.position : null,
      tournamentValue: mine?.tournamentValue ?? 0,
      prizeAmount: mine?.prizeAmount ?? null,
      gamesCounted,
      gamesWon: mine?.improvement.gamesWon ?? 0,
      minGamesRequired,
      recentUncounted: uncounted.map((g) => ({
        gameId: g.gameId,
        endedAt: (g.endedAt as Date).toISOString(),
        reason: g.reason as UncountedReason,
      })),
    };
  }

  async #find(id: string): Promise<Row> {
    const [row] = isUuid(id) ? await this.#db.select().from(tournaments).where(eq(tournaments.id, id)) : [];
    if (!row) throw notFound(TOURNAMENT_TEXTS.notFound);
    return row;
  }

  /**
   * Arms one timer at the next end date still to be paid out. One whose payout failed is left to the
   * periodic retry, so that it does not re-arm the timer at once, again and again.
   */
  async arm(): Promise<void> {
    const [next] = await this.#db
      .select({ endDate: tournaments.endDate })
      .from(tournaments)
      .where(and(isNull(tournaments.paidOutAt), isNull(tournaments.payoutError)))
      .orderBy(asc(tournaments.endDate))
      .limit(1);
    this.#timer?.cancel();
    this.#timer = next ? this.#clock.at(next.endDate.getTime(), () => void this.settle()) : null;
  }

  /** Tournaments ended and not paid whose last payout attempt failed, the oldest end first. */
  async failingPayouts(): Promise<FailingPayout[]> {
    const rows = await this.#db
      .select()
      .from(tournaments)
      .where(and(isNull(tournaments.paidOutAt), isNotNull(tournaments.payoutError)))
      .orderBy(asc(tournaments.endDate), asc(tournaments.id));
    return rows.map((row) => ({
      tournamentId: row.id,
      name: row.name,
      endDate: row.endDate.toISOString(),
      error: row.payoutError ?? '',
      attempts: row.payoutAttempts,
      lastAttemptAt: (row.payoutFailedAt ?? row.endDate).toISOString(),
    }));
  }

  /** Pays every tournament that has ended and is not paid yet; one payout at a time in this process. */
  settle(): Promise<void> {
    this.#settling ??= this.#payDue()
      .catch((error: unknown) => this.#log.error({ err: error }, 'tournament payouts could not be checked; will retry'))
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
      .where(
        and(
          isNull(tournaments.paidOutAt),
          lte(tournaments.endDate, now),
          // A failing payout is tried again once a minute, not on every settle.
          or(
            isNull(tournaments.payoutFailedAt),
            lte(tournaments.payoutFailedAt, new Date(now.getTime() - PAYOUT_RETRY_MS)),
          ),
        ),
      )
      .orderBy(asc(tournaments.endDate), asc(tournaments.id));
    // Each on its own: a failure is written down and the next one is paid all the same.
    for (const { id } of due) {
      try {
        if (await this.#payOut(id, now)) this.#onPayout('paid');
      } catch (error) {
        this.#onPayout('failed');
        await this.#payoutFailed(id, now, error);
      }
    }
    await this.arm();
  }

  async #payoutFailed(id: string, now: Date, error: unknown): Promise<void> {
    // The database's own words (Drizzle wraps them in the query and its parameters: not for the page).
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    const message = (cause instanceof Error ? cause.message : String(cause)).slice(0, PAYOUT_ERROR_CHARS);
    this.#log.error({ err: error, tournamentId: id }, 'tournament payout failed; will retry');
    try {
      await this.#db
        .update(tournaments)
        .set({
          payoutError: message || 'unknown error',
          payoutFailedAt: now,
          payoutAttempts: sql`${tournaments.payoutAttempts} + 1`,
        })
        .where(and(eq(tournaments.id, id), isNull(tournaments.paidOutAt)));
    } catch (writeError) {
      this.#log.error({ err: writeError, tournamentId: id }, 'a failed payout could not be recorded');
    }
  }

  /**
   * Exactly once: the conditional update claims the payout inside the transaction that writes the
   * ledger. A concurrent claimer waits on the row and then finds it paid; a crash rolls both back.
   * The ledger's unique (user, kind, reference) is a second guard.
   */
  async #payOut(id: string, now: Date): Promise<boolean> {
    return this.#db.transaction(async (tx) => {
      const [claimed] = await tx
        .update(tournaments)
        .set({ paidOutAt: now, payoutError: null })
        .where(and(eq(tournaments.id, id), isNull(tournaments.paidOutAt)))
        .returning();
      if (!claimed) return false;
      const stored = claimed.settings;
      const winners = (await standingsOf(tx, claimed)).filter((e) => e.isPrizeWinner);
      if (winners.length > 0) {
        await tx
          .insert(walletLedger)
          .values(
            winners.map((w) => ({
              userId: w.userId,
              currency: stored.prizePool.currency,
              // The stored decimal itself, never a JavaScript number's rounding of it.
              amount: claimed.prizeAmounts[w.position - 1] as string,
              kind: 'tournamentPrize',
              reference: id,
            })),
          )
          .onConflictDoNothing();
      }
      // The admin audit (docs/security.md): the server pays by itself, in the payout's transaction.
      await recordAdminAction(tx, {
        actor: SYSTEM_ACTOR,
        action: 'tournament.payout',
        targetId: id,
        details: {
          currency: stored.prizePool.currency,
          winners: winners.map((w) => ({
            userId: w.userId,
            position: w.position,
            amount: claimed.prizeAmounts[w.position - 1] as string,
          })),
        },
      });
      this.#log.info({ tournamentId: id, winners: winners.length }, 'tournament paid out');
      return true;
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
    const stored = row.settings;
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
      prizePool: {
        totalAmount: Number(row.prizeTotal),
        currency: stored.prizePool.currency,
        winnersCount: stored.prizePool.winnersCount,
        distribution: row.prizeAmounts.map((amount, index) => ({ position: index + 1, amount: Number(amount) })),
      },
      settings: stored.settings,
      isFeatured: stored.isFeatured,
      ...(isJoined !== undefined ? { isJoined } : {}),
      createdAt: row.createdAt.toISOString(),
    };
  }
}
