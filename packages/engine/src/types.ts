import type { Card } from './cards.ts';
import type { BotDifficulty, GameSpeed, PowerUpType } from './constants.ts';
import type { RngState } from './rng.ts';
import type { RuleError } from './errors.ts';

export interface SeatConfig {
  readonly id: string;
  readonly username: string;
  /** null for a human. */
  readonly bot: BotDifficulty | null;
  /**
   * "Match me" bots only: the median time per play (ms) of the person it is matched to; the bot then
   * plays `matchProfile(botPaceMs)` instead of its difficulty's profile (its difficulty is the label).
   */
  readonly botPaceMs?: number | undefined;
}

export interface GameConfig {
  /** 32 hex characters drawn by the server. */
  readonly seed: string;
  /** In join order; 2–6 seats. */
  readonly seats: readonly SeatConfig[];
  readonly cardsPerPlayer: number;
  readonly speed: GameSpeed;
  /** Game-clock time (ms) at which play starts. */
  readonly startAt: number;
}

export type LeaveReason = 'left' | 'disconnected';

export interface PlayerState {
  readonly id: string;
  readonly username: string;
  readonly bot: BotDifficulty | null;
  /** Join order, 0-based. */
  readonly seat: number;
  readonly hand: readonly Card[];
  /** Face down; index 0 is the top. */
  readonly deck: readonly Card[];
  readonly powerUpsUsed: readonly PowerUpType[];
  readonly frozenUntil: number | null;
  readonly frozenBy: string | null;
  /** When the player was last frozen (kept after the thaw: no bot freezes them again within 20 s). */
  readonly lastFrozenAt: number | null;
  readonly cardsPlayed: number;
  /**
   * Set when the player forfeited (left, or disconnected for too long). `at` is when they were taken
   * out of the game (for a disconnect, when its 60 s grace ran out); `wentAt` is when they went away
   * (the leave itself, or the start of the disconnect they never came back from), the time the early
   * walk-away rule judges (docs/fair-play.md).
   */
  readonly left: { readonly at: number; readonly wentAt: number; readonly reason: LeaveReason } | null;
  readonly disconnectedAt: number | null;
  /** Since when the player has had no playable hand card (null while they have one). */
  readonly stuckSince: number | null;
  /** "Match me" bots only: the matched median time per play (see SeatConfig); null otherwise. */
  readonly botPaceMs: number | null;
  /** Bots only: when the bot acts next. */
  readonly nextBotActionAt: number | null;
}

export interface FreezeEffect {
  readonly type: 'freeze';
  readonly targetPlayerId: string;
  readonly startTime: number;
  readonly duration: number;
}

export type EndReason = 'win' | 'timeCap' | 'deadlock' | 'forfeit' | 'aborted';

export interface PlayerResult {
  readonly playerId: string;
  readonly username: string;
  readonly isBot: boolean;
  readonly botDifficulty: BotDifficulty | null;
  /** 1-based final place. */
  readonly place: number;
  readonly cardsLeft: number;
  readonly cardsPlayed: number;
  readonly powerUpsUsed: number;
  readonly forfeited: boolean;
  readonly points: number;
}

export interface GameResult {
  readonly winnerId: string | null;
  readonly reason: EndReason;
  readonly endedAt: number;
  readonly durationMs: number;
  /** Ordered by place. */
  readonly ranking: readonly PlayerResult[];
}

export interface DeadlockState {
  /** When the current global deadlock will be resolved automatically (null: none pending). */
  readonly resolveAt: number | null;
  readonly consecutiveUnresolvable: number;
  /** Global deadlocks seen so far (a statistic). */
  readonly count: number;
}

export interface GameState {
  readonly config: GameConfig;
  readonly status: 'active' | 'finished';
  /** The latest time the state has been brought to. */
  readonly clock: number;
  readonly startedAt: number;
  readonly endsAt: number;
  readonly rng: RngState;
  readonly players: readonly PlayerState[];
  /** Each pile's last card is its top. */
  readonly piles: readonly (readonly Card[])[];
  /** Face down; the last card is flipped first. */
  readonly stock: readonly Card[];
  readonly effects: readonly FreezeEffect[];
  readonly deadlock: DeadlockState;
  /** Whether any human sat down; a game whose humans have all left is aborted. */
  readonly hadHumans: boolean;
  readonly result: GameResult | null;
}

export interface PowerUpTarget {
  readonly targetPlayerId?: string | undefined;
  readonly cardId?: string | undefined;
  readonly pileIndex?: number | undefined;
}

export type Command =
  | { readonly type: 'playCard'; readonly playerId: string; readonly cardId: string; readonly pileIndex: number }
  | ({ readonly type: 'usePowerUp'; readonly playerId: string; readonly powerUpType: PowerUpType } & PowerUpTarget)
  | { readonly type: 'checkDeadlock'; readonly playerId: string }
  | { readonly type: 'forceDeadlockResolution'; readonly playerId: string }
  | { readonly type: 'leave'; readonly playerId: string }
  | { readonly type: 'disconnect'; readonly playerId: string }
  | { readonly type: 'reconnect'; readonly playerId: string };

export type CommandType = Command['type'];

export type PowerUpEffect =
  | { readonly powerUpType: 'BOMB'; readonly card: Card; readonly pileIndex: number }
  | {
      readonly powerUpType: 'REVERSAL';
      readonly cardsReversed: number;
      readonly affectedPlayers: readonly { readonly userId: string; readonly cardsAdded: number }[];
    }
  | { readonly powerUpType: 'FREEZE'; readonly targetPlayer: string; readonly duration: number }
  | { readonly powerUpType: 'WHIRLWIND'; readonly cardsShuffled: number }
  | { readonly powerUpType: 'SNIPER'; readonly card: Card; readonly pileIndex: number };

export type DeadlockMode = 'automatic' | 'manual' | 'forced';

/** What happened, in order; the server turns these into the protocol's socket events. */
export type GameEvent =
  | { readonly type: 'cardPlayed'; readonly playerId: string; readonly card: Card; readonly pileIndex: number }
  /** A player's hand or deck changed: their owner gets handUpdated. */
  | { readonly type: 'handChanged'; readonly playerId: string }
  | { readonly type: 'powerUpUsed'; readonly playerId: string; readonly effect: PowerUpEffect }
  | {
      readonly type: 'playerFrozen';
      readonly playerId: string;
      readonly frozenBy: string;
      readonly duration: number;
      readonly until: number;
    }
  | { readonly type: 'playerUnfrozen'; readonly playerId: string }
  | { readonly type: 'deadlockDetected'; readonly resolveAt: number }
  | {
      readonly type: 'deadlockResolved';
      readonly mode: DeadlockMode;
      readonly cardsFlipped: number;
      readonly recycled: number;
    }
  | { readonly type: 'deadlockUnresolvable'; readonly reason: string; readonly consecutiveDeadlocks: number }
  | { readonly type: 'playerDisconnected'; readonly playerId: string }
  | { readonly type: 'playerReconnected'; readonly playerId: string }
  | { readonly type: 'playerLeft'; readonly playerId: string; readonly reason: LeaveReason }
  | { readonly type: 'gameEnded'; readonly result: GameResult };

export interface DeadlockCheck {
  readonly deadlockDetected: boolean;
  readonly resolved: boolean;
}

export type ApplyResult =
  | {
      readonly ok: true;
      readonly state: GameState;
      readonly events: readonly GameEvent[];
      /** Only for checkDeadlock. */
      readonly deadlockCheck?: DeadlockCheck;
    }
  | { readonly ok: false; readonly state: GameState; readonly error: RuleError };

export interface AdvanceResult {
  readonly state: GameState;
  readonly events: readonly GameEvent[];
}

export interface PublicPlayer {
  readonly userId: string;
  readonly username: string;
  readonly isBot: boolean;
  readonly botDifficulty: BotDifficulty | null;
  readonly position: number;
  readonly cardsLeft: number;
  readonly handCount: number;
  readonly deckCount: number;
  readonly cardsPlayed: number;
  readonly isReady: boolean;
  /** Shared between views and frozen (view.ts). */
  readonly powerUps: { readonly available: readonly PowerUpType[]; readonly used: readonly PowerUpType[] };
  readonly isFrozen: boolean;
  readonly isConnected: boolean;
  readonly hasLeft: boolean;
}

export interface PublicWinner {
  readonly userId: string;
  readonly username: string;
  readonly isBot: boolean;
  readonly botDifficulty: BotDifficulty | null;
}

/**
 * What anyone in the room may see (`gameState`); built afresh each time, so its arrays are
 * the caller's, but for the players' power-ups (shared and frozen).
 */
export interface PublicView {
  readonly status: 'active' | 'finished';
  /** The last 3 cards of each pile, top last. */
  readonly discardPiles: Card[][];
  readonly pileSizes: number[];
  readonly stockSize: number;
  readonly players: PublicPlayer[];
  readonly activeEffects: FreezeEffect[];
  readonly winner: PublicWinner | null;
  readonly startedAt: number;
  readonly endsAt: number;
  readonly deadlock: { readonly active: boolean; readonly resolveAt: number | null; readonly consecutive: number };
}

/** One player's private part. */
export interface HandView {
  readonly hand: readonly Card[];
  readonly deckSize: number;
  readonly cardsLeft: number;
  readonly powerUps: { readonly available: readonly PowerUpType[]; readonly used: readonly PowerUpType[] };
  readonly isFrozen: boolean;
  readonly frozenUntil: number | null;
  /** Since when this player has had no playable card (for the force-resolution button). */
  readonly stuckSince: number | null;
}

export interface PlayerView extends PublicView {
  /** null for spectators and unknown ids. */
  readonly you: HandView | null;
}
