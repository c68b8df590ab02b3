/**
 * Client → server socket events (docs/protocol.md, Client events): the payload schema of each and the `data` its ack
 * carries on success. Payloads are strict like HTTP bodies: an unknown field is answered
 * `{success: false, error}` naming it, instead of being silently ignored.
 */
import * as z from 'zod';
import { gameStateSchema, handViewSchema, activeEffectSchema, powerUpStateSchema } from './game-view.ts';
import { botGameEntryDataSchema, gameEntryDataSchema } from './http-game.ts';
import { LOBBY_TEXTS } from './game-texts.ts';
import { createBotGameSchema, createGameSettingsSchema, joinGameSchema } from './lobby.ts';
import { joinQueueSchema, queueStatusSchema } from './matchmaking.ts';
import { cardIdSchema, powerUpEffectSchema, usePowerUpSchema } from './power-ups.ts';
import {
  cardSchema,
  countSchema,
  gameStatusSchema,
  idSchema,
  pileIndexSchema,
  powerUpTypeSchema,
  roomCodeSchema,
  seqSchema,
} from './primitives.ts';
import { SERVER_TEXTS } from './texts.ts';
import { strictBody } from './validation.ts';

/**
 * The handshake: `io({ auth: { token } })`. The server's middleware checks it with this
 * schema before the JWT itself; a missing or blank token fails the connection with a message that
 * contains "Authentication", which the client turns into its "Authentication failed" text.
 */
export const socketAuthSchema = z.object(
  {
    token: z
      .string({ error: SERVER_TEXTS.authenticationRequired })
      .trim()
      .min(1, SERVER_TEXTS.authenticationRequired)
      .max(4096, SERVER_TEXTS.authenticationFailed),
  },
  { error: SERVER_TEXTS.authenticationRequired },
);
export type SocketAuth = z.input<typeof socketAuthSchema>;

/** Events whose payload is `{}`; a client that sends nothing at all is treated the same. */
export const emptyPayloadSchema = strictBody({}).default({});

export const setPlayerReadySchema = strictBody({ isReady: z.boolean() });

export const playCardSchema = strictBody({ cardId: cardIdSchema, pileIndex: pileIndexSchema });
export type PlayCardRequest = z.input<typeof playCardSchema>;

export const STOP_BOTS_REASONS = ['playerLeft', 'returnToDashboard', 'componentUnmount'] as const;

/** stopAllBots: the client leaves its game (gameId or roomCode) and says why; it forfeits an active game. */
export const stopAllBotsSchema = strictBody({
  gameId: idSchema.optional(),
  roomCode: roomCodeSchema.optional(),
  reason: z.enum(STOP_BOTS_REASONS),
  /** Accepted if a client sends it, and ignored: the player is whoever sent the event. */
  playerId: idSchema.optional(),
}).refine((payload) => payload.gameId !== undefined || payload.roomCode !== undefined, {
  message: LOBBY_TEXTS.gameIdOrRoomCodeRequired,
  path: ['gameId'],
});
export type StopAllBotsRequest = z.input<typeof stopAllBotsSchema>;

/** Payload schema by client event name: the server validates every event through this map. */
export const clientEventSchemas = {
  createGame: createGameSettingsSchema,
  'create-bot-game': createBotGameSchema,
  joinGame: joinGameSchema,
  leaveGame: emptyPayloadSchema,
  setPlayerReady: setPlayerReadySchema,
  startGame: emptyPayloadSchema,
  playCard: playCardSchema,
  usePowerUp: usePowerUpSchema,
  getPowerUpStatus: emptyPayloadSchema,
  requestHand: emptyPayloadSchema,
  checkDeadlock: emptyPayloadSchema,
  forceDeadlockResolution: emptyPayloadSchema,
  stopAllBots: stopAllBotsSchema,
  /** ours: a player of a finished game opens a rematch lobby; the game's other people are offered it. */
  offerRematch: strictBody({ gameId: idSchema }),
  /** ours (Play now): queue for a game with people of similar rating; leaveQueue leaves at once. */
  joinQueue: joinQueueSchema,
  leaveQueue: emptyPayloadSchema,
} as const;

export type ClientEventName = keyof typeof clientEventSchemas;
export const CLIENT_EVENT_NAMES = Object.keys(clientEventSchemas) as ClientEventName[];

export function isClientEventName(name: string): name is ClientEventName {
  return Object.hasOwn(clientEventSchemas, name);
}

/** Acks of events that answer nothing but success. */
const noAckData = z.undefined();

/** The `data` of each event's successful ack. */
export const clientAckDataSchemas = {
  createGame: gameEntryDataSchema,
  'create-bot-game': botGameEntryDataSchema,
  joinGame: gameEntryDataSchema,
  leaveGame: noAckData,
  setPlayerReady: z.object({ isReady: z.boolean() }),
  /** Idempotent: a game already starting or active answers success with its status. */
  startGame: z.object({ status: gameStatusSchema }),
  playCard: z.object({ card: cardSchema, pileIndex: pileIndexSchema }),
  usePowerUp: z.object({ powerUpType: powerUpTypeSchema, data: powerUpEffectSchema }),
  getPowerUpStatus: z.object({
    powerUps: powerUpStateSchema,
    activeEffects: z.array(activeEffectSchema),
    isFrozen: z.boolean(),
  }),
  /** The hand and the full view, with the seq they are current at (the resync after a gap). */
  requestHand: handViewSchema.extend({ gameState: gameStateSchema, seq: seqSchema }),
  checkDeadlock: z.object({ result: z.object({ deadlockDetected: z.boolean(), resolved: z.boolean() }) }),
  forceDeadlockResolution: z.object({ cardsFlipped: countSchema }),
  stopAllBots: noAckData,
  offerRematch: gameEntryDataSchema,
  joinQueue: queueStatusSchema,
  leaveQueue: noAckData,
} as const satisfies Record<ClientEventName, z.ZodType>;
