/** A player's account as the server sends it. */
import * as z from 'zod';
import { ACHIEVEMENT_IDS, USER_ROLES } from './constants.ts';
import { countSchema, currencySchema, idSchema, isoDateSchema, percentSchema } from './primitives.ts';

export const userRoleSchema = z.enum(USER_ROLES);
export type UserRole = z.infer<typeof userRoleSchema>;

export const userStatsSchema = z.object({
  gamesPlayed: countSchema,
  gamesWon: countSchema,
  /** Whole percent. */
  winRate: percentSchema,
  totalPoints: countSchema,
  /** Seconds of the fastest win; null before the first win. */
  fastestGame: countSchema.nullable(),
  botGamesPlayed: countSchema,
  /** Seconds. */
  averageGameTime: countSchema,
});
export type UserStats = z.infer<typeof userStatsSchema>;

/** Glicko-2 over games between people: rounded, with its recent curve. */
export const userRatingSchema = z.object({
  rating: z.number().int(),
  deviation: z.number().int(),
  /** Shown with "?" while the deviation is high (too few games to be sure). */
  provisional: z.boolean(),
  ratedGames: countSchema,
  /** The rating after each of the last rated games, oldest first (at most RATING_HISTORY_GAMES). */
  history: z.array(z.number().int()),
});
export type UserRating = z.infer<typeof userRatingSchema>;
/** Rated games the profile's curve shows. */
export const RATING_HISTORY_GAMES = 30;

const walletTotalsSchema = z.object({ balance: z.number(), totalWon: z.number().nonnegative() });

/**
 * Balance and totalWon are sums of the wallet ledger. The top-level pair is in SLAM,
 * the currency the client shows; prizes paid in SOL are kept apart in byCurrency.
 */
export const walletSchema = z.object({
  balance: z.number(),
  totalWon: z.number().nonnegative(),
  byCurrency: z.record(currencySchema, walletTotalsSchema),
  /** Set once the user has proved the address by signing a nonce. */
  solanaAddress: z.string().optional(),
});
export type Wallet = z.infer<typeof walletSchema>;

export const preferencesSchema = z.object({
  sound: z.boolean(),
  animations: z.boolean(),
  /** Mark ready automatically in lobbies. */
  autoPlay: z.boolean(),
});
export type Preferences = z.infer<typeof preferencesSchema>;

export const achievementIdSchema = z.enum(ACHIEVEMENT_IDS);
export const unlockedAchievementSchema = z.object({ id: achievementIdSchema, unlockedAt: isoDateSchema });

export const userSchema = z.object({
  id: idSchema,
  username: z.string(),
  email: z.string(),
  role: userRoleSchema,
  /** True for superadmin, admin and moderator. */
  canAccessAdmin: z.boolean(),
  emailVerified: z.boolean(),
  /** A demo login (`Guest_XXXX`). */
  isGuest: z.boolean(),
  stats: userStatsSchema,
  rating: userRatingSchema.optional(),
  wallet: walletSchema,
  preferences: preferencesSchema,
  /** floor(totalPoints / 1000) + 1. */
  level: z.number().int().min(1),
  achievements: z.array(unlockedAchievementSchema),
  createdAt: isoDateSchema,
});
export type User = z.infer<typeof userSchema>;
