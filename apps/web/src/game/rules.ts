/**
 * The client-side refusal checks: the engine's own refusal checks (its checks.ts) asked
 * over what this screen shows, so the screen refuses what the server would refuse without a round
 * trip, with the same texts. The server still decides; these only save the player a wasted move.
 */
import {
  type Card,
  type PlayRefusalCode,
  type PowerUpRefusalCode,
  type PowerUpType,
  type SelectRefusalCode,
  cardsToSendBack as engineCardsToSendBack,
  hasPlayableCard as handHasPlayableCard,
  playProblem as enginePlayProblem,
  playablePiles as enginePlayablePiles,
  powerUpProblem as enginePowerUpProblem,
  selectProblem as engineSelectProblem,
} from '@memeslam/engine';
import { GAME_TEXTS, cannotPlayCardText } from '@memeslam/protocol/game-texts';
import { DEADLOCK_THRESHOLDS_MS } from '@memeslam/protocol/constants';
import type { ClientStatus, GameStateView, PowerUpState } from './state.ts';

export interface PlayContext {
  readonly status: ClientStatus;
  readonly frozen: boolean;
  readonly hand: readonly Card[];
  readonly piles: readonly (readonly Card[])[];
  /** The server's pile sizes and stock size, when its view carries them (a REVERSAL needs cards to send back). */
  readonly pileSizes?: readonly number[];
  readonly stockSize?: number;
}

const topsOf = (piles: readonly (readonly Card[])[]): (Card | undefined)[] => piles.map((pile) => pile.at(-1));

/**
 * The texts of the engine's codes as this screen shows them. A pile index past the piles reads as a
 * pile with no cards, as it always has here (the screen offers only the piles it draws).
 */
const PLAY_TEXTS: Record<Exclude<PlayRefusalCode, 'NO_MATCH'>, string> = {
  GAME_NOT_ACTIVE: GAME_TEXTS.gameNotActive,
  FROZEN_PLAY: GAME_TEXTS.frozenCannotPlayCards,
  CARD_REQUIRED: GAME_TEXTS.selectTheCardFirst,
  CARD_NOT_IN_HAND: GAME_TEXTS.cardNotInHand,
  INVALID_PILE: GAME_TEXTS.noCardsInPile,
  EMPTY_PILE: GAME_TEXTS.noCardsInPile,
};

/** Why this play cannot be made, or null when it can. SNIPER skips the matching rule. */
export function playProblem(
  ctx: PlayContext,
  selectedId: string | null,
  pileIndex: number,
  options: { sniper?: boolean } = {},
): string | null {
  const tops = topsOf(ctx.piles);
  const situation = { status: ctx.status, frozen: ctx.frozen, hand: ctx.hand, pileTops: tops };
  const code = enginePlayProblem(situation, selectedId, pileIndex, { ignoreMatch: options.sniper === true });
  if (code === 'NO_MATCH') {
    return cannotPlayCardText(ctx.hand.find((c) => c.id === selectedId) as Card, tops[pileIndex] as Card);
  }
  return code === null ? null : PLAY_TEXTS[code];
}

const SELECT_TEXTS: Record<SelectRefusalCode, string> = {
  FROZEN_PLAY: GAME_TEXTS.frozenCannotSelectCards,
  GAME_NOT_ACTIVE: GAME_TEXTS.cannotPlayNow,
};

/** Selecting a hand card: not frozen, and play allowed (bots never reach this screen's hand). */
export function selectProblem(ctx: PlayContext): string | null {
  const code = engineSelectProblem(ctx);
  return code === null ? null : SELECT_TEXTS[code];
}

const POWER_UP_TEXTS: Record<PowerUpRefusalCode, string> = {
  FROZEN_POWER_UP: GAME_TEXTS.frozenCannotUsePowerUps,
  GAME_NOT_ACTIVE: GAME_TEXTS.gameNotActive,
  POWER_UP_NOT_AVAILABLE: GAME_TEXTS.powerUpNotAvailable,
  NO_OPPONENTS: GAME_TEXTS.noOpponentsToFreeze,
  NOTHING_TO_SEND_BACK: GAME_TEXTS.nothingToSendBack,
};

/**
 * Selecting or using a power-up: not frozen, active, still available; FREEZE needs an opponent, here
 * one this screen shows as freezable (`freezeTargets` below).
 */
export function powerUpProblem(
  ctx: PlayContext,
  powerUps: PowerUpState,
  type: PowerUpType,
  targets: readonly { readonly userId: string; readonly isFrozen: boolean }[],
): string | null {
  const opponents = targets.map((t) => ({ id: t.userId, frozen: t.isFrozen }));
  const cardsToSendBack =
    ctx.pileSizes && ctx.stockSize !== undefined ? engineCardsToSendBack(ctx.pileSizes, ctx.stockSize) : undefined;
  const situation = { ...ctx, powerUpsAvailable: powerUps.available, opponents, cardsToSendBack };
  const code = enginePowerUpProblem(situation, type);
  return code === null ? null : POWER_UP_TEXTS[code];
}

/** Whether any hand card matches any pile top: the client's own deadlock test. */
export function hasPlayableCard(hand: readonly Card[], piles: readonly (readonly Card[])[]): boolean {
  return handHasPlayableCard(hand, topsOf(piles));
}

/** The piles a card may go on. */
export function playablePiles(card: Card, piles: readonly (readonly Card[])[]): number[] {
  return enginePlayablePiles(card, topsOf(piles));
}

/** Opponents still in the game who can be frozen (not frozen already, not gone). */
export function freezeTargets(view: GameStateView | null, me: string | null) {
  return (view?.players ?? []).filter((p) => p.userId !== me && !p.hasLeft && !p.isFrozen && p.cardsLeft > 0);
}

/**
 * Where a stuck hand is on the deadlock ladder: the notice from 5 s (counting to 10 s),
 * the server check at 10 s, "Force Resolution Now" from 15 s, forcing at 20 s while resolving.
 */
export function deadlockLadder(stuckMs: number, resolving: boolean) {
  return {
    notice: stuckMs >= DEADLOCK_THRESHOLDS_MS.notice,
    secondsToCheck: Math.max(0, Math.ceil((DEADLOCK_THRESHOLDS_MS.checkServer - stuckMs) / 1000)),
    check: stuckMs >= DEADLOCK_THRESHOLDS_MS.checkServer,
    canForce: stuckMs >= DEADLOCK_THRESHOLDS_MS.forceButton,
    autoForce: resolving && stuckMs >= DEADLOCK_THRESHOLDS_MS.autoForce,
  };
}
