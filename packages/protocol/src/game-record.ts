/**
 * Finished games: the record kept for history and recent activity, and the replay (seed plus
 * timestamped commands) from which anyone can re-run the engine and check the seed commitment.
 */
import * as z from 'zod';
import type { Command, GameConfig } from '@memeslam/engine';
import { playerResultSchema, winnerSchema } from './game-view.ts';
import {
  botDifficultySchema,
  cardsPerPlayerSchema,
  countSchema,
  endReasonSchema,
  gameSpeedSchema,
  idSchema,
  isoDateSchema,
  pileIndexSchema,
  powerUpTypeSchema,
  roomCodeSchema,
} from './primitives.ts';

/** 32 hex characters drawn by the server. */
export const seedSchema = z.string().regex(/^[0-9a-f]{32}$/);
/** Hex SHA-256 of the seed's UTF-8 bytes. */
export const seedCommitmentSchema = z.string().regex(/^[0-9a-f]{64}$/);

/** A finished game as history and the profile's recent activity list it. */
export const gameRecordSchema = z.object({
  gameId: idSchema,
  roomCode: roomCodeSchema,
  isBotGame: z.boolean(),
  /** The strongest bot's difficulty, null in a game of people only. */
  botDifficulty: botDifficultySchema.nullable(),
  reason: endReasonSchema,
  /** Clients read the winner at gameState.winner; null when nobody won (an aborted game). */
  gameState: z.object({ winner: winnerSchema.nullable() }),
  /** Whole seconds. */
  duration: countSchema,
  results: z.array(playerResultSchema),
  createdAt: isoDateSchema,
  endedAt: isoDateSchema,
  /** For the player asking: whether they won, their place and points. */
  won: z.boolean().optional(),
  place: z.number().int().min(1).optional(),
  points: countSchema.optional(),
});
export type GameRecord = z.infer<typeof gameRecordSchema>;

export const seatConfigSchema = z.object({
  id: idSchema,
  username: z.string(),
  bot: botDifficultySchema.nullable(),
});

export const gameConfigSchema = z.object({
  seed: seedSchema,
  seats: z.array(seatConfigSchema).min(2).max(6),
  cardsPerPlayer: cardsPerPlayerSchema,
  speed: gameSpeedSchema,
  startAt: z.number(),
}) satisfies z.ZodType<GameConfig>;

const player = { playerId: idSchema };

/** The engine's commands, as stored in a replay. */
export const commandSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('playCard'), ...player, cardId: idSchema, pileIndex: pileIndexSchema }),
  z.object({
    type: z.literal('usePowerUp'),
    ...player,
    powerUpType: powerUpTypeSchema,
    targetPlayerId: idSchema.optional(),
    cardId: idSchema.optional(),
    pileIndex: pileIndexSchema.optional(),
  }),
  z.object({ type: z.literal('checkDeadlock'), ...player }),
  z.object({ type: z.literal('forceDeadlockResolution'), ...player }),
  z.object({ type: z.literal('leave'), ...player }),
  z.object({ type: z.literal('disconnect'), ...player }),
  z.object({ type: z.literal('reconnect'), ...player }),
]) satisfies z.ZodType<Command>;

/** GET /game/:id/replay: re-run `config` through the engine, applying each command at its time. */
export const replaySchema = z.object({
  gameId: idSchema,
  seed: seedSchema,
  seedCommitment: seedCommitmentSchema,
  config: gameConfigSchema,
  commands: z.array(z.object({ at: z.number(), command: commandSchema })),
});
export type Replay = z.infer<typeof replaySchema>;
