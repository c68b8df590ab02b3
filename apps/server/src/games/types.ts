/**
 * The vocabulary of a game room: seats, status, what it reports to its owner, what a snapshot keeps,
 * and how bots take their seats.
 */
import { createHash } from 'node:crypto';
import {
  BOT_DIFFICULTIES,
  type BotDifficulty,
  type Command,
  type DeadlockCheck,
  type GameEvent,
  type GameState,
} from '@memeslam/engine';
import type { GameSetup, ServerEventName } from '@memeslam/protocol';
import type { GameRoom } from './room.ts';

export type RoomStatus = 'waiting' | 'starting' | 'active' | 'finished';

export interface Seat {
  /** The user's id, or `bot-{n}` for a bot. */
  readonly playerId: string;
  readonly username: string;
  readonly bot: BotDifficulty | null;
  isReady: boolean;
}

export interface RoomOutput {
  /** A new game's seed: 32 random hex characters (DESIGN §2 Fairness). */
  seed(): string;
  /** To everyone in the room, spectators included. */
  toRoom(gameId: string, event: ServerEventName, payload: object): void;
  /** To one user's sockets only (hands). */
  toUser(userId: string, event: ServerEventName, payload: object): void;
  /** The room changed: snapshot it soon. */
  changed(room: GameRoom): void;
  /** The game is over: record it. */
  finished(room: GameRoom): void;
  /** The lobby emptied before a deal: forget the room. */
  closed(room: GameRoom): void;
}

/** What an accepted command did. */
export interface Applied {
  readonly events: readonly GameEvent[];
  readonly deadlockCheck: DeadlockCheck | null;
}

export type Outcome<T> = { readonly ok: true; readonly data: T } | { readonly ok: false; readonly error: string };

/** What a snapshot keeps: enough to rebuild the room after a restart. */
export interface RoomSnapshot {
  readonly id: string;
  readonly roomCode: string;
  readonly hostId: string;
  readonly hostName: string;
  readonly setup: GameSetup;
  readonly createdAt: number;
  readonly status: RoomStatus;
  readonly seats: readonly Seat[];
  readonly startsAt: number | null;
  readonly autoStartAt: number | null;
  readonly seed: string | null;
  readonly engine: GameState | null;
  readonly commands: readonly { at: number; command: Command }[];
  readonly seq: number;
  readonly clockOffset: number;
  /** Wall time of the snapshot, to resume the game clock where it stopped. */
  readonly savedAt: number;
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

const BOT_NAMES = ['Satoshi', 'Vitalik', 'Moonboy', 'Diamond', 'Degen'];

/** The bots of a new room, in seat order; mixed difficulties spread around the chosen one. */
export function botSeats(setup: GameSetup): Seat[] {
  const bots = setup.bots;
  if (!bots) return [];
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
