/**
 * The socket protocol as two typed event maps, usable as socket.io's generic parameters
 * (`Server<ClientToServerEvents, ServerToClientEvents>`, `Socket<ServerToClientEvents,
 * ClientToServerEvents>`): a renamed event or field breaks the build on both sides.
 */
import * as z from 'zod';
import {
  allPlayersReadySchema,
  cardPlayedSchema,
  connectedSchema,
  deadlockResolvedSchema,
  deadlockUnresolvableSchema,
  gameCreatedSchema,
  gameEndedSchema,
  rematchOfferedSchema,
  gameErrorSchema,
  gameJoinedSchema,
  gameRejoinedSchema,
  gameStartedSchema,
  gameStartingSchema,
  gameStateChangedSchema,
  gameUpdatedSchema,
  handPayloadSchema,
  playerConnectionSchema,
  playerFrozenSchema,
  playerJoinedSchema,
  playerLeftSchema,
  playerReadyChangedSchema,
  playerUnfrozenSchema,
  powerUpErrorSchema,
  powerUpUsedSchema,
} from './socket-server.ts';
import { botGameOfferedSchema, matchFoundSchema, queueStatusSchema } from './matchmaking.ts';
import { clientAckDataSchemas, clientEventSchemas, isClientEventName, type ClientEventName } from './socket-client.ts';
import { REFUSAL_TEXTS, type RefusalCode, refusalCodeSchema } from './refusals.ts';
import { SERVER_TEXTS } from './texts.ts';
import { parseWith, type Parsed } from './validation.ts';

/**
 * Payloads as the receiver may treat them: deeply read-only. The server can then emit the engine's
 * read-only views as they are, and the client keeps what it gets as immutable state.
 */
export type DeepReadonly<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/** Payload schema by server event name. */
export const serverEventSchemas = {
  connected: connectedSchema,
  gameCreated: gameCreatedSchema,
  gameJoined: gameJoinedSchema,
  gameUpdated: gameUpdatedSchema,
  playerJoined: playerJoinedSchema,
  playerLeft: playerLeftSchema,
  playerReadyChanged: playerReadyChangedSchema,
  allPlayersReady: allPlayersReadySchema,
  gameStarting: gameStartingSchema,
  gameStarted: gameStartedSchema,
  // Clients may treat these names as the same countdown or start signals. Our server sends
  // gameStarting and gameStarted; the others are typed so a listener on them stays checked.
  gameBegin: gameStartingSchema,
  roundStarted: gameStartingSchema,
  allPlayersStarted: gameStartingSchema,
  navigateToGame: gameStartingSchema,
  botGameStarting: gameStartingSchema,
  botGameStarted: gameStartedSchema,
  gameStateChanged: gameStateChangedSchema,
  handDealt: handPayloadSchema,
  handUpdated: handPayloadSchema,
  cardPlayed: cardPlayedSchema,
  powerUpUsed: powerUpUsedSchema,
  powerUpError: powerUpErrorSchema,
  playerFrozen: playerFrozenSchema,
  playerUnfrozen: playerUnfrozenSchema,
  gameEnded: gameEndedSchema,
  gameRejoined: gameRejoinedSchema,
  playerDisconnected: playerConnectionSchema,
  /** ours: the counterpart of playerDisconnected (the engine reports both). */
  playerReconnected: playerConnectionSchema,
  deadlockResolved: deadlockResolvedSchema,
  deadlockUnresolvable: deadlockUnresolvableSchema,
  gameError: gameErrorSchema,
  /** ours: another player of the finished game `gameId` opened a rematch lobby (`roomCode`). */
  rematchOffered: rematchOfferedSchema,
  /** ours (Play now): the queue as this player waits in it, a table found, a bot game offered. */
  queueStatus: queueStatusSchema,
  matchFound: matchFoundSchema,
  botGameOffered: botGameOfferedSchema,
  /** A problem not tied to a game (an unknown event, a rate limit). */
  error: gameErrorSchema,
} as const;

export type ServerEventName = keyof typeof serverEventSchemas;
export const SERVER_EVENT_NAMES = Object.keys(serverEventSchemas) as ServerEventName[];

/**
 * Names a client listens to that socket.io itself emits on the client; they are not
 * part of the map (socket.io reserves them).
 */
export const RESERVED_SOCKET_EVENTS = ['connect', 'disconnect', 'connect_error'] as const;

export type ServerPayload<E extends ServerEventName> = DeepReadonly<z.output<(typeof serverEventSchemas)[E]>>;

export type ServerToClientEvents = {
  [E in ServerEventName]: (payload: ServerPayload<E>) => void;
};

/**
 * What an emitter of server event `E` passes after the name: `Parameters<ServerToClientEvents[E]>`,
 * spelt out so that it stays a tuple for a generic `E` (the protocol's tests check the two agree).
 */
export type ServerArgs<E extends ServerEventName> = [payload: ServerPayload<E>];

/** One server event with its payload, as rooms collect them before sending. */
export type ServerMessage<E extends ServerEventName = ServerEventName> = {
  [K in E]: { readonly event: K; readonly payload: ServerPayload<K> };
}[E];

/** A server event's payload checked against its schema (the server's tests read everything this way). */
export function parseServerEvent(event: string, payload: unknown): Parsed<unknown> {
  if (!Object.hasOwn(serverEventSchemas, event))
    return { success: false, message: SERVER_TEXTS.unknownEvent, errors: [] };
  return parseWith(serverEventSchemas[event as ServerEventName], payload);
}

/** What the client sends (before the schema's defaults and normalisation). */
export type ClientPayload<E extends ClientEventName> = z.input<(typeof clientEventSchemas)[E]>;
/** What the server's handler gets once the payload passed its schema. */
export type ClientPayloadParsed<E extends ClientEventName> = z.output<(typeof clientEventSchemas)[E]>;
export type AckData<E extends ClientEventName> = DeepReadonly<z.output<(typeof clientAckDataSchemas)[E]>>;

/** A refused event's ack: the text a person reads and the code a program decides by. */
export interface AckRefusal {
  readonly success: false;
  readonly error: string;
  readonly code: RefusalCode;
  readonly data?: undefined;
}

/** Every client event is answered `{success, error?, code?, data?}` (docs/protocol.md, Client events). */
export type Ack<Data> =
  | ([Data] extends [undefined]
      ? { readonly success: true; readonly data?: undefined; readonly error?: undefined; readonly code?: undefined }
      : { readonly success: true; readonly data: Data; readonly error?: undefined; readonly code?: undefined })
  | AckRefusal;

export type AckCallback<E extends ClientEventName> = (response: Ack<AckData<E>>) => void;

export type ClientToServerEvents = {
  [E in ClientEventName]: (payload: ClientPayload<E>, ack: AckCallback<E>) => void;
};

/** Schema of a whole ack, for a client (or a test) that checks what it reads. */
export function ackSchemaFor<E extends ClientEventName>(event: E) {
  const data: z.ZodType = clientAckDataSchemas[event];
  return z.discriminatedUnion('success', [
    z.object({ success: z.literal(true), data: data.optional(), error: z.undefined().optional() }),
    z.object({ success: z.literal(false), error: z.string(), code: refusalCodeSchema }),
  ]);
}

/** The failed ack for a refusal: its code, and the code's usual text unless a more precise one is given. */
export function ackError(code: RefusalCode, error: string = REFUSAL_TEXTS[code]): AckRefusal {
  return { success: false, error, code };
}

/**
 * The server's one entry for an incoming event: an unknown name or a payload that fails its
 * schema comes back as a message for `{success: false, error}`, never as a throw.
 */
export function parseClientEvent<E extends ClientEventName>(event: E, payload: unknown): Parsed<ClientPayloadParsed<E>>;
export function parseClientEvent(event: string, payload: unknown): Parsed<unknown>;
export function parseClientEvent(event: string, payload: unknown): Parsed<unknown> {
  if (!isClientEventName(event)) return { success: false, message: SERVER_TEXTS.unknownEvent, errors: [] };
  return parseWith(clientEventSchemas[event], payload);
}
