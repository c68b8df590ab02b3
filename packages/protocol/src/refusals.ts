/**
 * Every refusal's stable code beside the text a person reads (boardgame.io's `errors.ts` habit):
 * the server's outcomes, its acks and its HTTP statuses, and the client's retries, decide by the code;
 * the text is only shown. The engine's rule codes come first, unchanged; the server's own follow.
 */
import { RULE_TEXTS } from '@memeslam/engine';
import * as z from 'zod';
import { GAME_TEXTS, LOBBY_TEXTS, TOURNAMENT_TEXTS } from './game-texts.ts';
import { MATCHMAKING_TEXTS } from './matchmaking.ts';
import { CONNECTION_TEXTS, SERVER_TEXTS, VALIDATION_TEXTS } from './texts.ts';

/** Each code's usual text. A refusal may carry a more precise one (a card named, a field named). */
export const REFUSAL_TEXTS = {
  ...RULE_TEXTS,
  // The games' door and the lobby.
  NOT_IN_GAME: LOBBY_TEXTS.notInGame,
  GAME_NOT_FOUND: LOBBY_TEXTS.gameNotFound,
  GAME_FULL: LOBBY_TEXTS.gameFull,
  GAME_ALREADY_STARTED: LOBBY_TEXTS.gameAlreadyStarted,
  ALREADY_IN_GAME: LOBBY_TEXTS.alreadyInGame,
  SPECTATORS_NOT_ALLOWED: LOBBY_TEXTS.spectatorsNotAllowed,
  NOT_HOST: LOBBY_TEXTS.onlyHostCanStart,
  NOT_ENOUGH_PLAYERS: LOBBY_TEXTS.notEnoughPlayers,
  PLAYERS_NOT_READY: LOBBY_TEXTS.allPlayersMustBeReady,
  CREATE_FAILED: LOBBY_TEXTS.failedToCreateGame,
  /** A rematch lobby still held for the previous game's players (docs/privacy.md). */
  REMATCH_HELD: LOBBY_TEXTS.rematchHeld,
  /** offerRematch past the window after the game's end, or past the offers a game may have. */
  REMATCH_EXPIRED: LOBBY_TEXTS.rematchExpired,
  REMATCH_LIMIT: LOBBY_TEXTS.rematchLimit,
  /** The room hit a server fault and was stopped; its game is recorded as aborted. */
  GAME_STOPPED: GAME_TEXTS.gameStopped,
  QUEUE_COOLDOWN: MATCHMAKING_TEXTS.cooldown,
  /** POST /tournaments/:id/join of a people-only tournament by an account whose e-mail is not verified. */
  TOURNAMENT_EMAIL_UNVERIFIED: TOURNAMENT_TEXTS.verifiedEmailRequired,
  // The server.
  /** A ceiling of the server (rooms, sockets) was reached: try again shortly. */
  SERVER_BUSY: SERVER_TEXTS.serverBusy,
  /**
   * Admission control: no node has headroom for a new game now (docs/capacity.md). Games in play go
   * on; the client asks again after a while (HTTP: 503 with Retry-After).
   */
  NO_HEADROOM: SERVER_TEXTS.inLine,
  TOO_MANY_GAMES: SERVER_TEXTS.tooManyGamesCreated,
  /** Cluster mode, Redis away: the request needs another node and cannot be served now. */
  RECONNECTING: SERVER_TEXTS.clusterUnavailable,
  /** The server is stopping and takes no more requests. */
  SERVER_STOPPING: GAME_TEXTS.anErrorOccurred,
  INTERNAL_ERROR: GAME_TEXTS.anErrorOccurred,
  // The socket's edge.
  /** No token, or one that does not sign in (a handshake's text then contains "Authentication"). */
  AUTHENTICATION_FAILED: SERVER_TEXTS.authenticationFailed,
  UNKNOWN_EVENT: SERVER_TEXTS.unknownEvent,
  PAYLOAD_TOO_LARGE: SERVER_TEXTS.payloadTooLarge,
  /** A payload that fails its schema; the text names the first problem. */
  INVALID_PAYLOAD: VALIDATION_TEXTS.invalidRequest,
  RATE_LIMITED: LOBBY_TEXTS.tooManyEvents,
  /** A handshake past the sockets one network address may hold. */
  TOO_MANY_CONNECTIONS: SERVER_TEXTS.tooManyConnections,
  // The client's own, never sent by the server: no socket, or no answer in time.
  NOT_CONNECTED: CONNECTION_TEXTS.notConnected,
  TIMEOUT: CONNECTION_TEXTS.timeout,
} as const;

export type RefusalCode = keyof typeof REFUSAL_TEXTS;

export const REFUSAL_CODES = Object.keys(REFUSAL_TEXTS) as [RefusalCode, ...RefusalCode[]];

export const refusalCodeSchema = z.enum(REFUSAL_CODES);

export function isRefusalCode(code: string): code is RefusalCode {
  return Object.hasOwn(REFUSAL_TEXTS, code);
}

/**
 * A refused socket handshake's `connect_error.data`: its code, and `retry` when the server could not
 * check the token (its database is away) and the client should keep its session and try again.
 */
export const handshakeRefusalSchema = z.object({ code: refusalCodeSchema, retry: z.boolean().optional() });
export type HandshakeRefusal = z.infer<typeof handshakeRefusalSchema>;
