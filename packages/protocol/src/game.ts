/**
 * A game room as the lobby and the dashboard list it (the game and the dashboard's game
 * summary): who is seated, the settings, and — once dealt — the public gameState.
 */
import * as z from 'zod';
import { gameStateSchema, powerUpStateSchema } from './game-view.ts';
import {
  botDifficultySchema,
  cardsPerPlayerSchema,
  countSchema,
  gameSpeedSchema,
  gameStatusSchema,
  idSchema,
  isoDateSchema,
  powerUpTypeSchema,
  roomCodeSchema,
} from './primitives.ts';

/** {numberOfBots, difficulty}: `difficulty` is the strongest bot's when their difficulties are mixed. */
export const botInfoSchema = z.object({ numberOfBots: countSchema, difficulty: botDifficultySchema });
export type BotInfo = z.infer<typeof botInfoSchema>;

/** A seat in the lobby. Bots show with a "(Bot)" suffix and take no commands. */
export const playerSchema = z.object({
  userId: idSchema,
  username: z.string(),
  isBot: z.boolean(),
  /** null for a person. */
  botDifficulty: botDifficultySchema.nullable(),
  isReady: z.boolean(),
  /** Join order, 0-based. */
  position: countSchema,
  cardsLeft: countSchema,
  powerUps: powerUpStateSchema,
  /** A flat copy of powerUps.used, in the order they were used. */
  powerUpsUsed: z.array(powerUpTypeSchema),
  /**
   * Whether this seat is the user the payload is addressed to. Only set where one user is the
   * receiver (acks, gameRejoined, HTTP answers): a room broadcast has no single "current" player.
   */
  isCurrentPlayer: z.boolean().optional(),
  isHost: z.boolean(),
  isConnected: z.boolean().optional(),
});
export type Player = z.infer<typeof playerSchema>;

export const gameSettingsSchema = z.object({
  cardsPerPlayer: cardsPerPlayerSchema,
  gameSpeed: gameSpeedSchema,
  allowSpectators: z.boolean(),
  autoStart: z.boolean().optional(),
});
export type GameSettings = z.infer<typeof gameSettingsSchema>;

export const gameSchema = z.object({
  gameId: idSchema,
  roomCode: roomCodeSchema,
  /** Clients read the host both as a user id and as an object with a username; this carries both. */
  host: z.object({ userId: idSchema.optional(), username: z.string() }),
  status: gameStatusSchema,
  players: z.array(playerSchema),
  playersCount: countSchema,
  maxPlayers: countSchema,
  /** Waiting with a free seat: a non-member may join. */
  isOpen: z.boolean(),
  isBotGame: z.boolean(),
  /** botSettings and botInfo carry the same {numberOfBots, difficulty}; clients read both names. */
  botSettings: botInfoSchema.nullable(),
  botInfo: botInfoSchema.nullable(),
  gameSettings: gameSettingsSchema,
  createdAt: isoDateSchema,
  /** While starting: when play begins (epoch ms), so a client that arrives mid-countdown ends it on time. */
  startsAt: z.number().nullable().optional(),
  /** null until the cards are dealt. */
  gameState: gameStateSchema.nullable(),
});
export type Game = z.infer<typeof gameSchema>;
