/** Finished games as history, recent activity and the data export read them. */
import type { BotDifficulty, EndReason } from '@memeslam/engine';
import { BOT_DIFFICULTIES, PROVISIONAL_DEVIATION, isProvisional, strongestDifficulty } from '@memeslam/engine';
import type { GameRecord, GameResult } from '@memeslam/protocol';
import { and, count, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import { isUuid } from '../users/repository.ts';
import type { Db } from '../db/client.ts';
import { gamePlayers, games } from '../db/schema.ts';

type GameRow = typeof games.$inferSelect;
type SeatRow = typeof gamePlayers.$inferSelect;

/** The finished games a user sat in, newest first. */
export async function gameRecordsFor(db: Db, userId: string, limit = 1000, offset = 0): Promise<GameRecord[]> {
  const mine = await db
    .select({ gameId: gamePlayers.gameId })
    .from(gamePlayers)
    .innerJoin(games, eq(games.id, gamePlayers.gameId))
    .where(and(eq(gamePlayers.userId, userId), eq(games.status, 'finished')))
    .orderBy(desc(games.finishedAt), desc(games.id))
    .limit(limit)
    .offset(offset);
  if (mine.length === 0) return [];
  const ids = mine.map((m) => m.gameId);
  const rows = await db.select().from(games).where(inArray(games.id, ids));
  const seats = await db.select().from(gamePlayers).where(inArray(gamePlayers.gameId, ids));
  const byId = new Map(rows.map((g) => [g.id, g]));
  return ids.flatMap((id) => {
    const game = byId.get(id);
    return game
      ? [
          toRecord(
            game,
            seats.filter((s) => s.gameId === id),
            userId,
          ),
        ]
      : [];
  });
}

/** A rated seat's change as players see it: whole ratings, and the difference of the two shown. */
function ratingChange(before: number, after: number, deviation: number) {
  const shown = { before: Math.round(before), after: Math.round(after) };
  return { ...shown, change: shown.after - shown.before, provisional: isProvisional({ deviation }) };
}

/** A finished game's ranking (by place) and winner, from its seats. */
function outcomeOf(game: GameRow, seats: SeatRow[]) {
  const results = seats
    .filter((s) => s.place !== null)
    .sort((a, b) => (a.place as number) - (b.place as number))
    .map((s) => ({
      playerId: s.playerId,
      username: s.username,
      isBot: s.isBot,
      botDifficulty: s.botDifficulty as BotDifficulty | null,
      place: s.place as number,
      cardsLeft: s.cardsLeft ?? 0,
      cardsPlayed: s.cardsPlayed ?? 0,
      powerUpsUsed: s.powerUpsUsed ?? 0,
      forfeited: s.forfeited,
      points: s.points ?? 0,
      ...(s.ratingBefore !== null && s.ratingAfter !== null
        ? { rating: ratingChange(s.ratingBefore, s.ratingAfter, s.deviationAfter ?? PROVISIONAL_DEVIATION) }
        : {}),
    }));
  const winnerSeat = game.winnerId ? seats.find((s) => s.userId === game.winnerId) : undefined;
  const first = results[0];
  const winner =
    game.endReason === 'aborted' || !first
      ? null
      : {
          userId: winnerSeat?.playerId ?? first.playerId,
          username: winnerSeat?.username ?? first.username,
          isBot: winnerSeat?.isBot ?? first.isBot,
          botDifficulty: (winnerSeat?.botDifficulty ?? first.botDifficulty) as BotDifficulty | null,
        };
  return { results, winner };
}

/** How a finished game ended, as its players saw it (the core of gameEnded), from the database. */
export function gameResultOf(game: GameRow, seats: SeatRow[]): GameResult {
  const durationMs = game.durationMs ?? 0;
  return {
    gameId: game.id,
    ...outcomeOf(game, seats),
    duration: Math.floor(durationMs / 1000),
    durationMs,
    reason: (game.endReason ?? 'aborted') as EndReason,
  };
}

function toRecord(game: GameRow, seats: SeatRow[], viewerId: string): GameRecord {
  const { results, winner } = outcomeOf(game, seats);
  const mine = seats.find((s) => s.userId === viewerId);
  const bots = seats.flatMap((s) => (s.botDifficulty ? [s.botDifficulty as BotDifficulty] : []));
  const ended = game.finishedAt ?? game.createdAt;
  return {
    gameId: game.id,
    roomCode: game.roomCode,
    isBotGame: game.isBotGame,
    botDifficulty: strongestDifficulty(bots),
    reason: (game.endReason ?? 'aborted') as EndReason,
    gameState: { winner },
    duration: Math.floor((game.durationMs ?? 0) / 1000),
    results,
    createdAt: game.createdAt.toISOString(),
    endedAt: ended.toISOString(),
    ...(mine
      ? {
          won: winner !== null && winner.userId === mine.playerId,
          ...(mine.place !== null ? { place: mine.place } : {}),
          points: mine.points ?? 0,
        }
      : {}),
  };
}

export async function countGamesOf(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(gamePlayers)
    .innerJoin(games, eq(games.id, gamePlayers.gameId))
    .where(and(eq(gamePlayers.userId, userId), eq(games.status, 'finished')));
  return row?.n ?? 0;
}

/** Platform totals over finished games that were played (not aborted). */
export async function globalGameStats(db: Db) {
  const played = and(eq(games.status, 'finished'), ne(games.endReason, 'aborted'));
  const [totals] = await db
    .select({
      total: count(),
      bot: sql<number>`count(*) filter (where ${games.isBotGame})`.mapWith(Number),
      averageMs: sql<number>`coalesce(avg(${games.durationMs}), 0)`.mapWith(Number),
    })
    .from(games)
    .where(played);
  const strongest = db
    .select({
      gameId: gamePlayers.gameId,
      level: sql<number>`max(case ${gamePlayers.botDifficulty} ${BOT_LEVELS} end)`.as('level'),
    })
    .from(gamePlayers)
    .innerJoin(games, eq(games.id, gamePlayers.gameId))
    .where(and(eq(gamePlayers.isBot, true), played))
    .groupBy(gamePlayers.gameId)
    .as('strongest');
  const byLevel = await db.select({ level: strongest.level, n: count() }).from(strongest).groupBy(strongest.level);
  const byDifficulty = { easy: 0, normal: 0, hard: 0, expert: 0 };
  for (const row of byLevel) {
    const name = BOT_DIFFICULTIES[Number(row.level) - 1];
    if (name) byDifficulty[name] = row.n;
  }
  return {
    totalGames: totals?.total ?? 0,
    totalBotGames: totals?.bot ?? 0,
    totalHumanGames: (totals?.total ?? 0) - (totals?.bot ?? 0),
    averageGameTime: Math.round((totals?.averageMs ?? 0) / 1000),
    botGamesByDifficulty: byDifficulty,
  };
}

/**
 * Each difficulty's level in SQL, 1 for the weakest (BOT_DIFFICULTIES' order): a game's strongest bot
 * is its highest level, the database's side of the engine's strongestDifficulty. Constants only.
 */
const BOT_LEVELS = sql.raw(BOT_DIFFICULTIES.map((d, i) => `when '${d}' then ${i + 1}`).join(' '));

/** A finished game's row and seats, for the Game shape of lists and lookups. */
export async function finishedGame(db: Db, idOrCode: string) {
  const where = isUuid(idOrCode) ? eq(games.id, idOrCode) : eq(games.roomCode, idOrCode.toUpperCase());
  const [game] = await db.select().from(games).where(where).orderBy(desc(games.createdAt)).limit(1);
  if (!game) return null;
  const seats = await db.select().from(gamePlayers).where(eq(gamePlayers.gameId, game.id));
  return { game, seats: seats.sort((a, b) => a.seat - b.seat) };
}
