import { FORCE_DEADLOCK_AFTER_MS } from './constants.ts';

/**
 * Stable refusal codes with the texts players see (docs/protocol.md, Refusal codes);
 * tests assert on codes, so a text can change here alone.
 */
export const RULE_TEXTS = {
  INVALID_COMMAND: 'Invalid command',
  GAME_NOT_ACTIVE: 'Game not active',
  PLAYER_NOT_FOUND: 'You are not a player in this game',
  PLAYER_LEFT: 'You have left this game',
  BOT_PLAYER: 'Bots are controlled by the server',
  FROZEN_PLAY: 'You are frozen and cannot play cards!',
  FROZEN_POWER_UP: 'You are frozen and cannot use power-ups!',
  CARD_REQUIRED: 'Please select the card first',
  CARD_NOT_IN_HAND: 'Card not found in hand',
  INVALID_PILE: 'Invalid discard pile',
  EMPTY_PILE: 'No cards in discard pile',
  NO_MATCH: 'Cannot play {card} on {card}',
  UNKNOWN_POWER_UP: 'Unknown power-up',
  POWER_UP_NOT_AVAILABLE: 'Power-up not available',
  NO_OPPONENTS: 'No opponents to freeze',
  NOTHING_TO_SEND_BACK: 'Nothing to send back: the piles hold only their top cards and the stock is empty',
  TARGET_REQUIRED: 'Choose an opponent to freeze',
  INVALID_TARGET: 'That player cannot be frozen',
  ALREADY_FROZEN: 'That player is already frozen',
  FORCE_NOT_ALLOWED: `Deadlock resolution can be forced only after ${FORCE_DEADLOCK_AFTER_MS / 1000} seconds without a playable card`,
} as const;

export type RuleErrorCode = keyof typeof RULE_TEXTS;

export interface RuleError {
  readonly code: RuleErrorCode;
  readonly message: string;
}

export function ruleError(code: RuleErrorCode, message: string = RULE_TEXTS[code]): RuleError {
  return { code, message };
}
