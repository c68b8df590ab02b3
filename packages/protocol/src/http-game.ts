/**
 * Game calls under /api/game (docs/http-api.md, Games). Query schemas are not
 * strict: every GET carries the client's cache-busting timestamp, which is dropped. Numbers and
 * booleans in a query arrive as text and are converted here.
 */
import * as z from 'zod';
import { GAME_LIST_LIMIT, LEADERBOARD_LIMIT } from './constants.ts';
import { gameRecordSchema } from './game-record.ts';
import { gameSchema } from './game.ts';
import { gameResultSchema } from './game-view.ts';
import { createGameSettingsSchema } from './lobby.ts';
import {
  botChoiceSchema,
  botDifficultySchema,
  countSchema,
  gameListModeSchema,
  gameStatusSchema,
  idSchema,
  percentSchema,
  roomCodeSchema,
} from './primitives.ts';
import { strictBody } from './validation.ts';

/** "true"/"false" (and 1/0, yes/no) from a query string, or a real boolean. */
const queryBoolean = z.union([z.boolean(), z.stringbool()]);
const queryLimit = (fallback: number) => z.coerce.number().int().min(1).max(LEADERBOARD_LIMIT).default(fallback);

/** POST /game/create: the Create-game payload wrapped in `settings` (retried once on a 5xx). */
export const createGameRequestSchema = strictBody({ settings: createGameSettingsSchema });

/** What creating or joining a game answers. */
export const gameEntryDataSchema = z.object({ gameId: idSchema, roomCode: roomCodeSchema, game: gameSchema });
export type GameEntryData = z.infer<typeof gameEntryDataSchema>;

/** POST /game/create-bot-game: the client reads gameId, roomCode, numberOfBots and botDifficulty. */
export const botGameEntryDataSchema = gameEntryDataSchema.extend({
  numberOfBots: countSchema,
  /** As chosen: a level, or 'match' ("Match me"). */
  botDifficulty: botChoiceSchema,
});
export type BotGameEntryData = z.infer<typeof botGameEntryDataSchema>;

export const gameDataSchema = z.object({ game: gameSchema });

/** GET /game/:id/result: a finished game (by id or room code) and how it ended, for good. */
export const gameResultDataSchema = z.object({ game: gameSchema, result: gameResultSchema });
export type GameResultData = z.infer<typeof gameResultDataSchema>;

/** GET /game/active. */
export const activeGamesQuerySchema = z.object({
  gameMode: gameListModeSchema.optional(),
  botDifficulty: botDifficultySchema.optional(),
  includeBotGames: queryBoolean.default(true),
  limit: queryLimit(GAME_LIST_LIMIT),
});
export type ActiveGamesQuery = z.input<typeof activeGamesQuerySchema>;

export const activeGamesDataSchema = z.object({
  games: z.array(gameSchema),
  summary: z.object({ botGames: countSchema, humanGames: countSchema }),
});
export type ActiveGamesData = z.infer<typeof activeGamesDataSchema>;

/** GET /game/my-games: the caller's unfinished games unless a status is asked for. */
export const myGamesQuerySchema = z.object({
  status: gameStatusSchema.optional(),
  limit: queryLimit(GAME_LIST_LIMIT),
});
export const myGamesDataSchema = z.object({ games: z.array(gameSchema) });

/** GET /game/history: finished games, newest first. */
export const gameHistoryQuerySchema = z.object({
  limit: queryLimit(GAME_LIST_LIMIT),
  offset: z.coerce.number().int().min(0).default(0),
});
export const gameHistoryDataSchema = z.object({ games: z.array(gameRecordSchema), total: countSchema });

/** The difficulty counts cover every difficulty, expert included. */
const botGamesByDifficultySchema = z.object({
  easy: countSchema,
  normal: countSchema,
  hard: countSchema,
  expert: countSchema,
});

/** GET /game/stats. Times are seconds, rates whole percent. */
export const gameStatsDataSchema = z.object({
  userStats: z.object({
    totalGames: countSchema,
    totalWins: countSchema,
    averageGameTime: countSchema,
    /** Prizes won (the wallet's totalWon); wagered pots do not exist yet. */
    totalPotWon: z.number().nonnegative(),
    winRate: percentSchema,
    /** How many of recentGames were bot games, and how many were games of people only. */
    recentBotGames: countSchema,
    recentHumanGames: countSchema,
  }),
  recentGames: z.array(gameRecordSchema),
  globalStats: z.object({
    totalGames: countSchema,
    totalBotGames: countSchema,
    totalHumanGames: countSchema,
    averageGameTime: countSchema,
    /** Sum of tournament prize pools paid out. */
    totalPotValue: z.number().nonnegative(),
    botGamesByDifficulty: botGamesByDifficultySchema,
  }),
});
export type GameStatsData = z.infer<typeof gameStatsDataSchema>;

/** GET /game/bot-status/:id. */
export const botStatusDataSchema = z.object({
  gameId: idSchema,
  isBotGame: z.boolean(),
  bots: z.array(
    z.object({
      userId: idSchema,
      username: z.string(),
      difficulty: botDifficultySchema,
      cardsLeft: countSchema,
      /** Acted within the last 5 s. */
      isActive: z.boolean(),
    }),
  ),
});
export type BotStatusData = z.infer<typeof botStatusDataSchema>;

/** GET /game/test: a liveness probe of the game routes. */
export const gameTestDataSchema = z.object({ ok: z.literal(true) });

/** GET /health (page origin, not under /api, no envelope): `{ok: true, ...}`. */
export const healthSchema = z.looseObject({ ok: z.literal(true) });
export type Health = z.infer<typeof healthSchema>;
