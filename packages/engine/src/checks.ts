/**
 * The refusal checks of a play, a selection and a power-up, in a fixed order, as pure functions over what one player
 * sees: apply() and the bots ask them of the engine's state, the web app of its view of the game, so
 * the screen refuses what the server would refuse, for the same reason. Each answers the RuleError
 * code of the first check that fails, or null; the caller words it (the engine with RULE_TEXTS, the
 * web app with the protocol's texts).
 */
import { type Card, matches } from './cards.ts';
import type { PowerUpType } from './constants.ts';
import type { RuleErrorCode } from './errors.ts';
import type { PowerUpTarget } from './types.ts';

/** What the play checks read of one player's situation. */
export interface PlaySituation {
  /** 'active' while the game is being played; anything else refuses every move. */
  readonly status: string;
  readonly frozen: boolean;
  readonly hand: readonly Card[];
  /** Each pile's top card by pile index; undefined for a pile with no cards. */
  readonly pileTops: readonly (Card | undefined)[];
}

/** What the power-up checks read besides: the power-ups left, and the opponents one may freeze. */
export interface PowerUpSituation extends PlaySituation {
  readonly powerUpsAvailable: readonly PowerUpType[];
  /** The opponents still in the game (the web app passes those its view shows as freezable). */
  readonly opponents: readonly { readonly id: string; readonly frozen: boolean }[];
  /** Cards a REVERSAL could send back (under the pile tops, then the stock); undefined when not known. */
  readonly cardsToSendBack?: number;
}

/** The codes each check may answer, so that a caller can word every one of them. */
export type PlayRefusalCode = Extract<
  RuleErrorCode,
  'GAME_NOT_ACTIVE' | 'FROZEN_PLAY' | 'CARD_REQUIRED' | 'CARD_NOT_IN_HAND' | 'INVALID_PILE' | 'EMPTY_PILE' | 'NO_MATCH'
>;
export type SelectRefusalCode = Extract<RuleErrorCode, 'FROZEN_PLAY' | 'GAME_NOT_ACTIVE'>;
export type PowerUpRefusalCode = Extract<
  RuleErrorCode,
  'FROZEN_POWER_UP' | 'GAME_NOT_ACTIVE' | 'POWER_UP_NOT_AVAILABLE' | 'NO_OPPONENTS' | 'NOTHING_TO_SEND_BACK'
>;
export type TargetRefusalCode = Extract<
  RuleErrorCode,
  'INVALID_PILE' | 'CARD_REQUIRED' | 'CARD_NOT_IN_HAND' | 'TARGET_REQUIRED' | 'INVALID_TARGET' | 'ALREADY_FROZEN'
>;

function isPileIndex(s: PlaySituation, pileIndex: number): boolean {
  return Number.isInteger(pileIndex) && pileIndex >= 0 && pileIndex < s.pileTops.length;
}

/**
 * Why a card cannot go on a pile now, or null. `ignoreMatch` drops the matching rule (the web app's
 * SNIPER pick checks its card and pile this way; the engine checks SNIPER with powerUpTargetProblem).
 */
export function playProblem(
  s: PlaySituation,
  cardId: string | null | undefined,
  pileIndex: number,
  options: { readonly ignoreMatch?: boolean } = {},
): PlayRefusalCode | null {
  if (s.status !== 'active') return 'GAME_NOT_ACTIVE';
  if (s.frozen) return 'FROZEN_PLAY';
  if (cardId === null || cardId === undefined) return 'CARD_REQUIRED';
  const card = s.hand.find((c) => c.id === cardId);
  if (!card) return 'CARD_NOT_IN_HAND';
  if (!isPileIndex(s, pileIndex)) return 'INVALID_PILE';
  const top = s.pileTops[pileIndex];
  if (!top) return 'EMPTY_PILE';
  if (!options.ignoreMatch && !matches(card, top)) return 'NO_MATCH';
  return null;
}

/** Why a hand card cannot be picked up to play (the first half of a play), or null: the freeze is named first. */
export function selectProblem(s: Pick<PlaySituation, 'status' | 'frozen'>): SelectRefusalCode | null {
  if (s.frozen) return 'FROZEN_PLAY';
  if (s.status !== 'active') return 'GAME_NOT_ACTIVE';
  return null;
}

/**
 * Why a power-up cannot be used now, whatever its target, or null. One that would change nothing is
 * refused rather than used up: a REVERSAL with no card under the pile tops and none in the stock.
 */
export function powerUpProblem(
  s: Pick<PowerUpSituation, 'status' | 'frozen' | 'powerUpsAvailable' | 'opponents' | 'cardsToSendBack'>,
  type: PowerUpType,
): PowerUpRefusalCode | null {
  if (s.frozen) return 'FROZEN_POWER_UP';
  if (s.status !== 'active') return 'GAME_NOT_ACTIVE';
  if (!s.powerUpsAvailable.includes(type)) return 'POWER_UP_NOT_AVAILABLE';
  if (type === 'FREEZE' && s.opponents.length === 0) return 'NO_OPPONENTS';
  if (type === 'REVERSAL' && s.cardsToSendBack === 0) return 'NOTHING_TO_SEND_BACK';
  return null;
}

/** Why a power-up's target data does not fit the situation, or null (BOMB's pile is optional). */
export function powerUpTargetProblem(
  s: PowerUpSituation,
  type: PowerUpType,
  target: PowerUpTarget,
): TargetRefusalCode | null {
  const pileOk = (pileIndex: number | undefined): boolean => pileIndex === undefined || isPileIndex(s, pileIndex);
  switch (type) {
    case 'BOMB':
      return pileOk(target.pileIndex) ? null : 'INVALID_PILE';
    case 'SNIPER':
      if (target.cardId === undefined) return 'CARD_REQUIRED';
      if (!s.hand.some((c) => c.id === target.cardId)) return 'CARD_NOT_IN_HAND';
      return target.pileIndex !== undefined && pileOk(target.pileIndex) ? null : 'INVALID_PILE';
    case 'FREEZE': {
      if (target.targetPlayerId === undefined) return 'TARGET_REQUIRED';
      const victim = s.opponents.find((o) => o.id === target.targetPlayerId);
      if (!victim) return 'INVALID_TARGET';
      return victim.frozen ? 'ALREADY_FROZEN' : null;
    }
    case 'REVERSAL':
    case 'WHIRLWIND':
      return null;
  }
}

/** Whether any hand card matches any pile top: a hand with none is stuck (docs/game-rules.md, Deadlock). */
export function hasPlayableCard(hand: readonly Card[], pileTops: readonly (Card | undefined)[]): boolean {
  for (const top of pileTops) {
    if (!top) continue;
    for (const card of hand) if (matches(card, top)) return true;
  }
  return false;
}

/** The piles a card may go on, by index. */
export function playablePiles(card: Card, pileTops: readonly (Card | undefined)[]): number[] {
  const piles: number[] = [];
  pileTops.forEach((top, pileIndex) => {
    if (top && matches(card, top)) piles.push(pileIndex);
  });
  return piles;
}

/** The cards a REVERSAL could send back: those under each pile's top, and the stock. */
export function cardsToSendBack(pileSizes: readonly number[], stockSize: number): number {
  return pileSizes.reduce((sum, size) => sum + Math.max(0, size - 1), stockSize);
}
