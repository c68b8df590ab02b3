/**
 * What a game looks like on the wire once cards are dealt: the public `gameState` every broadcast
 * carries, one player's private hand, and the final results. Built on the engine's view
 * types; the engine's extra fields (stockSize, endsAt, deadlock, cardsPlayed…) are declared
 * optional so they are accepted and kept, while nothing private (another hand, a deck, the stock's
 * cards) has a place here at all.
 */
import * as z from 'zod';
import {
  HAND_SIZE,
  VISIBLE_PILE_CARDS,
  type FreezeEffect,
  type HandView,
  type PlayerResult,
  type PublicWinner,
} from '@memeslam/engine';
import {
  botDifficultySchema,
  cardSchema,
  countSchema,
  endReasonSchema,
  gameStatusSchema,
  idSchema,
  powerUpTypeSchema,
} from './primitives.ts';

/** Read-only: the server shares one frozen part between the views it sends (engine's view.ts). */
export const powerUpStateSchema = z.object({
  available: z.array(powerUpTypeSchema).readonly(),
  used: z.array(powerUpTypeSchema).readonly(),
});
export type PowerUpState = z.infer<typeof powerUpStateSchema>;

/** An active effect (today only freeze); `startTime` and `duration` are ms. */
export const activeEffectSchema = z.object({
  type: z.literal('freeze'),
  targetPlayerId: idSchema,
  startTime: z.number(),
  duration: countSchema,
}) satisfies z.ZodType<FreezeEffect>;
export type ActiveEffect = z.infer<typeof activeEffectSchema>;

/** A seat as everyone sees it: counts, never cards. */
export const viewPlayerSchema = z.object({
  userId: idSchema,
  username: z.string(),
  isBot: z.boolean(),
  botDifficulty: botDifficultySchema.nullable(),
  position: countSchema,
  cardsLeft: countSchema,
  handCount: countSchema,
  deckCount: countSchema,
  isReady: z.boolean(),
  powerUps: powerUpStateSchema,
  isFrozen: z.boolean(),
  // The engine's extras.
  cardsPlayed: countSchema.optional(),
  isConnected: z.boolean().optional(),
  hasLeft: z.boolean().optional(),
});
export type ViewPlayer = z.infer<typeof viewPlayerSchema>;

export const winnerSchema = z.object({
  userId: idSchema,
  username: z.string(),
  isBot: z.boolean(),
  botDifficulty: botDifficultySchema.nullable(),
}) satisfies z.ZodType<PublicWinner>;
export type Winner = z.infer<typeof winnerSchema>;

/** The public view of a dealt game (`gameState`). */
export const gameStateSchema = z.object({
  status: gameStatusSchema,
  /** The last 3 cards of each pile, top last. */
  discardPiles: z.array(z.array(cardSchema).max(VISIBLE_PILE_CARDS)),
  pileSizes: z.array(countSchema),
  players: z.array(viewPlayerSchema),
  activeEffects: z.array(activeEffectSchema),
  winner: winnerSchema.nullable(),
  /** Epoch ms when play began. */
  startedAt: z.number(),
  /**
   * Game.gameState.canPlay: true exactly while status is active. The engine's view leaves
   * it out, so a receiver that finds it absent derives it from status.
   */
  canPlay: z.boolean().optional(),
  // The engine's extras.
  stockSize: countSchema.optional(),
  /** Epoch ms of the 15-minute time cap. */
  endsAt: z.number().optional(),
  deadlock: z.object({ active: z.boolean(), resolveAt: z.number().nullable(), consecutive: countSchema }).optional(),
});
export type GameStateView = z.infer<typeof gameStateSchema>;

/** One player's private part: their hand (never more than 3 cards) and counts of the rest. */
export const handViewSchema = z.object({
  hand: z.array(cardSchema).max(HAND_SIZE),
  deckSize: countSchema,
  cardsLeft: countSchema,
  powerUps: powerUpStateSchema,
  isFrozen: z.boolean().optional(),
  frozenUntil: z.number().nullable().optional(),
  /** Since when this player has had no playable card (epoch ms), for the force-resolution button. */
  stuckSince: z.number().nullable().optional(),
}) satisfies z.ZodType<Partial<HandView>>;
export type HandViewPayload = z.infer<typeof handViewSchema>;

/** One line of the final ranking, ordered by place (cardsLeft ascending). */
export const playerResultSchema = z.object({
  playerId: idSchema,
  username: z.string(),
  isBot: z.boolean(),
  botDifficulty: botDifficultySchema.nullable(),
  place: z.number().int().min(1),
  cardsLeft: countSchema,
  cardsPlayed: countSchema,
  powerUpsUsed: countSchema,
  forfeited: z.boolean(),
  points: countSchema,
  /**
   * A rated game (people only): the player's rating before and after it, rounded, the
   * change as shown ("+12"), and whether the new rating is still provisional ("1520?"). Known once
   * the game is recorded: GET /game/:id/result has it, gameEnded does not.
   */
  rating: z
    .object({ before: z.number().int(), after: z.number().int(), change: z.number().int(), provisional: z.boolean() })
    .optional(),
}) satisfies z.ZodType<PlayerResult>;
export type PlayerResultPayload = z.infer<typeof playerResultSchema>;

/**
 * How a game ended, as its players saw it then: the core of gameEnded, and what GET /game/:id/result
 * gives for good once the room is gone.
 */
export const gameResultSchema = z.object({
  gameId: idSchema,
  /** null when nobody won (an aborted game). */
  winner: winnerSchema.nullable(),
  duration: countSchema,
  durationMs: countSchema,
  results: z.array(playerResultSchema),
  reason: endReasonSchema,
});
export type GameResult = z.infer<typeof gameResultSchema>;
