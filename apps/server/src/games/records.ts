/** Finished games as history, recent activity and the data export read them. */
import type { BotDifficulty, EndReason } from '@memeslam/engine';
import { BOT_DIFFICULTIES } from '@memeslam/engine';
import type { GameRecord } from '@memeslam/protocol';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { gamePlayers, games } from '../db/schema.ts';

type GameRow = typeof games.$inferSelect;
type SeatRow = typeof gamePlayers.$inferSelect;

/** The finished games a user sat in, newest first. */
export async function gameRecordsFor(db: Db, userId: string, limit = 1000): Promise<GameRecord[]> {
  const mine = await db
    .select({ gameId: gamePlayers.gameId })
    .from(gamePlayers)
    .innerJoin(games, eq(games.id, gamePlayers.gameId))
    .where(and(eq(gamePlayers.userId, userId), eq(games.status, 'finished')))
    .orderBy(desc(games.finishedAt))
    .limit(limit);
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

function toRecord(game: GameRow, seats: SeatRow[], viewerId: string): GameRecord {
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
  const mine = seats.find((s) => s.userId === viewerId);
  const bots = seats.flatMap((s) => (s.botDifficulty ? [s.botDifficulty as BotDifficulty] : []));
  const strongest = bots.sort((a, b) => BOT_DIFFICULTIES.indexOf(b) - BOT_DIFFICULTIES.indexOf(a))[0] ?? null;
  const ended = game.finishedAt ?? game.createdAt;
  return {
    gameId: game.id,
    roomCode: game.roomCode,
    isBotGame: game.isBotGame,
    botDifficulty: strongest,
    reason: (game.endReason ?? 'aborted') as EndReason,
    gameState: { winner },
    duration: Math.round((game.durationMs ?? 0) / 1000),
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
