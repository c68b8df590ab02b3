/** The rule constants (docs/game-rules.md); every timing is in milliseconds of game clock. */
export const HAND_SIZE = 3;
export const CARDS_PER_PLAYER_OPTIONS = [20, 30, 40] as const;
export const DEFAULT_CARDS_PER_PLAYER = 30;
export const MIN_PLAYERS = 2;
export const MAX_PLAYERS = 6;
/** At least this many cards stay undealt to players (they become pile tops and the stock). */
export const MIN_UNDEALT_CARDS = 24;

export const POWER_UP_TYPES = ['BOMB', 'REVERSAL', 'FREEZE', 'WHIRLWIND', 'SNIPER'] as const;
export type PowerUpType = (typeof POWER_UP_TYPES)[number];
export const FREEZE_DURATION_MS = 8000;
export const REVERSAL_CARDS = 3;

export const TIME_CAP_MS = 15 * 60 * 1000;
export const DISCONNECT_GRACE_MS = 60_000;
/**
 * docs/fair-play.md: a game decided by walk-aways is a contest only if some player who left it stayed
 * at least this long into play and played at least EARLY_LEAVE_MIN_CARDS cards; otherwise it is aborted
 * (no winner, no points) instead of a forfeit win.
 */
export const EARLY_LEAVE_MS = 60_000;
export const EARLY_LEAVE_MIN_CARDS = 5;
export const FORCE_DEADLOCK_AFTER_MS = 15_000;
export const MAX_CONSECUTIVE_UNRESOLVABLE = 3;
export const UNRESOLVABLE_REASON = 'No more cards can be flipped.';

export const GAME_SPEEDS = ['slow', 'normal', 'fast', 'blitz'] as const;
export type GameSpeed = (typeof GAME_SPEEDS)[number];
export const SPEED_TABLE: Record<GameSpeed, { botReactionFactor: number; deadlockDelayMs: number }> = {
  slow: { botReactionFactor: 1.5, deadlockDelayMs: 6000 },
  normal: { botReactionFactor: 1.0, deadlockDelayMs: 4000 },
  fast: { botReactionFactor: 0.7, deadlockDelayMs: 3000 },
  blitz: { botReactionFactor: 0.45, deadlockDelayMs: 2000 },
};

export const BOT_DIFFICULTIES = ['easy', 'normal', 'hard', 'expert'] as const;
export type BotDifficulty = (typeof BOT_DIFFICULTIES)[number];

/** Points factor of the strongest bot in a bot game. */
export const DIFFICULTY_POINTS_FACTOR: Record<BotDifficulty, number> = {
  easy: 0.25,
  normal: 0.5,
  hard: 0.75,
  expert: 1.0,
};
export const POINTS_PER_CARD = 2;
export const POINTS_PER_OPPONENT_BEATEN = 50;

/** Discard piles by player count: 2 for 2–3 players, 3 for 4–5, 4 for 6. */
export function pileCountFor(players: number): number {
  if (players <= 3) return 2;
  if (players <= 5) return 3;
  return 4;
}
