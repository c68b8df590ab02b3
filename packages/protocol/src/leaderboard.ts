/** GET /auth/leaderboard (docs/http-api.md, Leaderboard). */
import * as z from 'zod';
import { LEADERBOARD_LIMIT, RANKING_SORTS } from './constants.ts';
import { countSchema, idSchema, isoDateSchema, percentSchema } from './primitives.ts';

export const leaderboardSortSchema = z.enum(RANKING_SORTS);
export type LeaderboardSort = z.infer<typeof leaderboardSortSchema>;

/**
 * Query strings arrive as text, so numbers are coerced. Not strict: every GET carries the client's
 * cache-busting timestamp parameter, which is simply dropped.
 */
export const leaderboardQuerySchema = z.object({
  sortBy: leaderboardSortSchema.default('totalPoints'),
  limit: z.coerce.number().int().min(1).max(LEADERBOARD_LIMIT).default(LEADERBOARD_LIMIT),
});
export type LeaderboardQuery = z.input<typeof leaderboardQuerySchema>;

/** One ranked row; `_id` is the user id here (the client's name for it). */
export const leaderboardUserSchema = z.object({
  _id: idSchema,
  rank: z.number().int().min(1),
  username: z.string(),
  /** When the user joined. */
  createdAt: isoDateSchema,
  stats: z.object({
    gamesPlayed: countSchema,
    gamesWon: countSchema,
    winRate: percentSchema,
    totalPoints: countSchema,
    fastestGame: countSchema.nullable(),
    /** Glicko-2 over games between people, rounded; provisional ("1500?") while the deviation is high. */
    rating: z.number().int().optional(),
    ratingProvisional: z.boolean().optional(),
    ratedGames: countSchema.optional(),
  }),
});
export type LeaderboardUser = z.infer<typeof leaderboardUserSchema>;

export const leaderboardStatsSchema = z.object({
  totalGamesPlayed: countSchema,
  totalPointsScored: countSchema,
  /** Live sockets, cluster-wide in scale-out. */
  totalPlayersOnline: countSchema,
});
export type LeaderboardStats = z.infer<typeof leaderboardStatsSchema>;

export const leaderboardDataSchema = z.object({
  users: z.array(leaderboardUserSchema),
  stats: leaderboardStatsSchema,
});
export type LeaderboardData = z.infer<typeof leaderboardDataSchema>;
