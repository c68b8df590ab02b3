/**
 * Server → client socket events (docs/protocol.md, Server events). Every event about a game carries `seq`, the
 * game's event sequence number: a client that sees a gap asks for the full view again. Hand events
 * go to their owner only; nothing here has room for another player's cards.
 */
import * as z from 'zod';
import { seedCommitmentSchema, seedSchema } from './game-record.ts';
import { botInfoSchema, gameSchema, playerSchema } from './game.ts';
import {
  activeEffectSchema,
  gameResultSchema,
  gameStateSchema,
  handViewSchema,
  powerUpStateSchema,
} from './game-view.ts';
import { powerUpEffectSchema } from './power-ups.ts';
import {
  botDifficultySchema,
  cardSchema,
  countSchema,
  gameStatusSchema,
  idSchema,
  pileIndexSchema,
  powerUpTypeSchema,
  roomCodeSchema,
  seqSchema,
} from './primitives.ts';
import { refusalCodeSchema } from './refusals.ts';

const seq = { seq: seqSchema };
const failed = z.object({ success: z.literal(false), error: z.string(), code: refusalCodeSchema });

/** gameCreated {success, game, roomCode, error}: the game on success, the reason otherwise. */
export const gameCreatedSchema = z.discriminatedUnion('success', [
  z.object({ success: z.literal(true), game: gameSchema, gameId: idSchema, roomCode: roomCodeSchema, ...seq }),
  failed,
]);

/** gameJoined {success, game, gameId}. */
export const gameJoinedSchema = z.discriminatedUnion('success', [
  z.object({ success: z.literal(true), game: gameSchema, gameId: idSchema, roomCode: roomCodeSchema, ...seq }),
  failed,
]);

/** gameUpdated: the full game with its players. */
export const gameUpdatedSchema = gameSchema.extend(seq);

export const playerJoinedSchema = z.object({ player: playerSchema, game: gameSchema, ...seq });

export const playerLeftSchema = z.object({ userId: idSchema, username: z.string(), isBot: z.boolean(), ...seq });

export const playerReadyChangedSchema = z.object({
  userId: idSchema,
  username: z.string(),
  isReady: z.boolean(),
  isBot: z.boolean(),
  ...seq,
});

export const allPlayersReadySchema = z.object({ gameId: idSchema, ...seq });

/** The countdown: play begins at `startsAt` (epoch ms), `countdownDuration` (5000) after it was sent. */
export const gameStartingSchema = z.object({
  gameId: idSchema,
  roomCode: roomCodeSchema,
  countdownDuration: countSchema,
  startsAt: z.number(),
  isBotGame: z.boolean(),
  botSettings: botInfoSchema.nullable(),
  players: z.array(playerSchema),
  ...seq,
});

/** Play has begun; the seed stays secret until gameEnded, its SHA-256 is published now. */
export const gameStartedSchema = z.object({
  gameId: idSchema,
  roomCode: roomCodeSchema,
  gameState: gameStateSchema,
  players: z.array(playerSchema),
  seedCommitment: seedCommitmentSchema,
  isBotGame: z.boolean(),
  botSettings: botInfoSchema.nullable(),
  ...seq,
});

/** A client may read gameStateChanged's `status` or `gameStatus`; we send both. */
export const gameStateChangedSchema = z.object({ status: gameStatusSchema, gameStatus: gameStatusSchema, ...seq });

/** handDealt / handUpdated {hand, deckSize, cardsLeft, powerUps}, to the hand's owner only. */
export const handPayloadSchema = handViewSchema.extend(seq);

export const cardPlayedSchema = z.object({
  playerId: idSchema,
  username: z.string(),
  cardId: idSchema,
  card: cardSchema,
  pileIndex: pileIndexSchema,
  isBot: z.boolean(),
  /** The bot's difficulty; null for a person. */
  difficulty: botDifficultySchema.nullable(),
  gameState: gameStateSchema,
  ...seq,
});

/** `effect` is the power-up's description for toasts; `data` what it did. */
export const powerUpUsedSchema = z.object({
  playerId: idSchema,
  username: z.string(),
  powerUpType: powerUpTypeSchema,
  effect: z.string(),
  data: powerUpEffectSchema,
  gameState: gameStateSchema,
  isBot: z.boolean(),
  ...seq,
});

/** A refused power-up, to its user only (the ack carries the same error). */
export const powerUpErrorSchema = z.object({
  powerUpType: powerUpTypeSchema.optional(),
  message: z.string(),
  code: refusalCodeSchema.optional(),
});

/** `frozenBy` is the freezer's name (for "frozen by …"), `frozenById` their id; `duration` is ms. */
export const playerFrozenSchema = z.object({
  playerId: idSchema,
  playerName: z.string(),
  frozenBy: z.string(),
  frozenById: idSchema,
  frozenByBot: z.boolean(),
  duration: countSchema,
  ...seq,
});

export const playerUnfrozenSchema = z.object({ playerId: idSchema, playerName: z.string(), ...seq });

/** The end: `duration` in whole seconds (durationMs exact), results by place, and the seed revealed. */
export const gameEndedSchema = gameResultSchema.extend({
  seed: seedSchema,
  gameState: gameStateSchema,
  ...seq,
});

/** ours: a rematch of the finished game `gameId`, waiting in the lobby `roomCode`, offered by `by`. */
export const rematchOfferedSchema = z.object({
  gameId: idSchema,
  roomCode: roomCodeSchema,
  by: z.object({ userId: idSchema, username: z.string() }),
});

/** Sent on reconnect: everything the client needs to carry on where it was. */
export const gameRejoinedSchema = handViewSchema.extend({
  game: gameSchema,
  gameState: gameStateSchema,
  activeEffects: z.array(activeEffectSchema),
  powerUps: powerUpStateSchema,
  isFrozen: z.boolean(),
  ...seq,
});

/** A seat's connection changed; the game does not pause. */
export const playerConnectionSchema = z.object({ userId: idSchema, username: z.string(), ...seq });

export const deadlockResolvedSchema = z.object({
  newDiscardPiles: gameStateSchema.shape.discardPiles,
  gameState: gameStateSchema,
  automatic: z.boolean(),
  manual: z.boolean(),
  forced: z.boolean(),
  cardsFlipped: countSchema,
  ...seq,
});

export const deadlockUnresolvableSchema = z.object({
  /** The engine's "No more cards can be flipped." */
  reason: z.string(),
  consecutiveDeadlocks: countSchema,
  ...seq,
});

/** A refusal without an ack to carry it, or (with `seq`) a room stopped by a server fault. */
export const gameErrorSchema = z.object({
  message: z.string(),
  code: refusalCodeSchema.optional(),
  seq: seqSchema.optional(),
});

/** After the socket is authenticated: who the server thinks this is. */
export const connectedSchema = z.object({ userId: idSchema, username: z.string() });
