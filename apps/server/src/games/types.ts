/**
 * The vocabulary of a game room: seats, status, what a room needs from its owner, what it writes
 * durably (lobby rows and the command log), what it shows, and how bots take their seats.
 */
import { createHash } from 'node:crypto';
import {
  BOT_DIFFICULTIES,
  type BotDifficulty,
  type Command,
  DEFAULT_MATCH_PACE_MS,
  type GameState,
  advance,
  apply,
  createGame,
  matchLabel,
  nextDeadline,
} from '@memeslam/engine';
import {
  type GameSetup,
  MATCH_ME,
  REFUSAL_TEXTS,
  type RefusalCode,
  type ServerArgs,
  type ServerEventName,
  type ServerPayload,
} from '@memeslam/protocol';
import type { Clock } from '../clock.ts';
import type { RoomStatus, Seat, StoredHeader, StoredLobby } from '../db/schema.ts';

/**
 * A room's status, a seat, a lobby and a dealt game's header as a live game's row stores them: the
 * database schema holds these shapes (db/schema.ts, its jsonb columns), the rooms use them as they are.
 */
export type { RematchHold, RoomStatus, Seat, StoredHeader, StoredLobby } from '../db/schema.ts';

/** A refusal: the text a person reads and the code the ack, the HTTP status and the client decide by. */
export interface Refusal {
  readonly ok: false;
  readonly error: string;
  readonly code: RefusalCode;
}

export type Outcome<T> = { readonly ok: true; readonly data: T } | Refusal;

export const ok = <T>(data: T): Outcome<T> => ({ ok: true, data });
/** A refusal with its code's usual text, or a more precise one (the engine names the cards). */
export const fail = (code: RefusalCode, error: string = REFUSAL_TEXTS[code]): Refusal => ({ ok: false, error, code });

/** The events a room numbers: every one whose payload carries the room's seq. */
export type RoomEventName = {
  [E in ServerEventName]: ServerPayload<E> extends { readonly seq: number } ? E : never;
}[ServerEventName];

/** A room event's payload before its step numbers it (the step adds `seq`). */
export type RoomPayload<E extends RoomEventName> = E extends RoomEventName ? Omit<ServerPayload<E>, 'seq'> : never;

/** One room event with its payload, as a step collects them. */
export type RoomMessage = {
  [E in RoomEventName]: { readonly event: E; readonly payload: RoomPayload<E> };
}[RoomEventName];

/** How a room sends events: to its channel or to one user, each event with its own payload type. */
export interface ServerEmitters {
  /** To everyone in the room, spectators included. */
  toRoom<E extends ServerEventName>(gameId: string, event: E, ...args: ServerArgs<E>): void;
  /** To one user's sockets only (hands). */
  toUser<E extends ServerEventName>(userId: string, event: E, ...args: ServerArgs<E>): void;
  /**
   * `toRoom` and `toUser` for later: the function returned sends the message. On one node it is
   * encoded now, and a step's messages wait for its writes as their text, which keeps their payloads'
   * objects out of V8's old generation (local-adapter.ts); the Redis adapter's (cluster mode) and a
   * service without a transport yet encode it when it is sent. Payloads are not changed after this
   * call either way.
   */
  prepareToRoom<E extends ServerEventName>(gameId: string, event: E, ...args: ServerArgs<E>): () => void;
  prepareToUser<E extends ServerEventName>(userId: string, event: E, ...args: ServerArgs<E>): () => void;
}

/** The engine functions a room runs; tests wrap them to make a room throw. */
export interface Rules {
  readonly createGame: typeof createGame;
  readonly apply: typeof apply;
  readonly advance: typeof advance;
  readonly nextDeadline: typeof nextDeadline;
}

export const ENGINE_RULES: Rules = { createGame, apply, advance, nextDeadline };

/** One step of a live game's log: a command applied at `at`, or (command null) a timer step to `at`. */
export interface LogEntry {
  /** 1, 2, 3… within the game. */
  readonly n: number;
  /** Game-clock milliseconds. */
  readonly at: number;
  /** The room's broadcast seq after the step. */
  readonly seq: number;
  readonly command: Command | null;
}

/** What one step of a room changes in its row; fields left out stay as they are. */
export interface RowUpdate {
  status?: RoomStatus;
  lobby?: StoredLobby;
  header?: StoredHeader;
  seedCommitment?: string;
  startedAt?: number;
  endReason?: 'aborted';
  finishedAt?: number;
}

/** What a step of a room must make durable before its answers and broadcasts leave. */
export interface RoomWrite {
  row?: RowUpdate;
  entries: LogEntry[];
}

/** A stored game that was not finished when the server stopped. */
export interface StoredGame {
  readonly id: string;
  readonly roomCode: string;
  readonly setup: GameSetup;
  readonly createdAt: number;
  readonly lobby: StoredLobby;
  readonly header: StoredHeader | null;
  readonly entries: readonly LogEntry[];
}

/**
 * What a room needs from the service that owns it. A room sends through its steps (prepared messages)
 * and, once it has stopped, to its channel at once.
 */
export interface RoomDeps extends Pick<ServerEmitters, 'toRoom' | 'prepareToRoom' | 'prepareToUser'> {
  readonly clock: Clock;
  readonly rules: Rules;
  /** A new game's seed: 32 random hex characters. */
  seed(): string;
  /** Makes a step durable; resolves once it is (retried without limit while the database is away). */
  persist(gameId: string, write: RoomWrite): Promise<void>;
  /** The game is over (its end is durable): record it. */
  finished(gameId: string): void;
  /** The lobby emptied before a deal (or no human was connected for too long): forget it. */
  closed(gameId: string): void;
  /** The room threw: it has been stopped; abort the game. */
  failed(gameId: string, error: unknown): void;
}

/** A command the engine applied, at its game-clock time: a log entry's, and a replay's. */
export interface LoggedCommand {
  readonly at: number;
  readonly command: Command;
}

/** What a finished game's record needs, read from its room. */
export interface FinishedGame {
  readonly id: string;
  readonly seed: string;
  readonly state: GameState;
  readonly seats: readonly Seat[];
  readonly clockOffset: number;
  readonly isBotGame: boolean;
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

const BOT_NAMES = ['Satoshi', 'Vitalik', 'Moonboy', 'Diamond', 'Degen'];

/**
 * The bots of a new room, in seat order; mixed difficulties spread around the chosen one. "Match me"
 * bots all play at the host's recorded pace (`matchPaceMs`, set by the service), labelled with the
 * level a person of that pace finds about even.
 */
export function botSeats(setup: GameSetup): Seat[] {
  const bots = setup.bots;
  if (!bots) return [];
  if (bots.difficulty === MATCH_ME) {
    const pace = bots.matchPaceMs ?? DEFAULT_MATCH_PACE_MS;
    return Array.from({ length: bots.numberOfBots }, (_, k) => ({
      playerId: `bot-${k + 1}`,
      username: bots.personalities[k] ?? BOT_NAMES[k % BOT_NAMES.length] ?? `Bot ${k + 1}`,
      bot: matchLabel(pace),
      botPaceMs: pace,
      isReady: true,
    }));
  }
  const base = BOT_DIFFICULTIES.indexOf(bots.difficulty);
  const spread = [0, -1, 1, -2, 2];
  return Array.from({ length: bots.numberOfBots }, (_, k) => {
    const index = bots.mixedDifficulties
      ? Math.min(BOT_DIFFICULTIES.length - 1, Math.max(0, base + (spread[k] ?? 0)))
      : base;
    return {
      playerId: `bot-${k + 1}`,
      username: bots.personalities[k] ?? BOT_NAMES[k % BOT_NAMES.length] ?? `Bot ${k + 1}`,
      bot: BOT_DIFFICULTIES[index] as BotDifficulty,
      isReady: true,
    };
  });
}
