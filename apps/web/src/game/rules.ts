/**
 * The client-side checks of gameplay spec §5, in the spec's order, as pure functions: the screen
 * refuses what the server would refuse without a round trip, with the same texts. The server
 * still decides; these only save the player a wasted move.
 */
import { type Card, type PowerUpType, matches } from '@memeslam/engine';
import { GAME_TEXTS, cannotPlayCardText } from '@memeslam/protocol/game-texts';
import { DEADLOCK_THRESHOLDS_MS } from '@memeslam/protocol/constants';
import type { ClientStatus, GameStateView, PowerUpState } from './state.ts';

export interface PlayContext {
  readonly status: ClientStatus;
  readonly frozen: boolean;
  readonly hand: readonly Card[];
  readonly piles: readonly (readonly Card[])[];
}

/** Why this play cannot be made, or null when it can. SNIPER skips the matching rule. */
export function playProblem(
  ctx: PlayContext,
  selectedId: string | null,
  pileIndex: number,
  options: { sniper?: boolean } = {},
): string | null {
  if (ctx.status !== 'active') return GAME_TEXTS.gameNotActive;
  if (ctx.frozen) return GAME_TEXTS.frozenCannotPlayCards;
  if (selectedId === null) return GAME_TEXTS.selectTheCardFirst;
  const card = ctx.hand.find((c) => c.id === selectedId);
  if (!card) return GAME_TEXTS.cardNotInHand;
  const top = ctx.piles[pileIndex]?.at(-1);
  if (!top) return GAME_TEXTS.noCardsInPile;
  if (!options.sniper && !matches(card, top)) return cannotPlayCardText(card, top);
  return null;
}

/** Selecting a hand card: not frozen, and play allowed (bots never reach this screen's hand). */
export function selectProblem(ctx: PlayContext): string | null {
  if (ctx.frozen) return GAME_TEXTS.frozenCannotSelectCards;
  if (ctx.status !== 'active') return GAME_TEXTS.cannotPlayNow;
  return null;
}

/** Selecting or using a power-up: not frozen, active, still available; FREEZE needs an opponent. */
export function powerUpProblem(
  ctx: PlayContext,
  powerUps: PowerUpState,
  type: PowerUpType,
  opponents: number,
): string | null {
  if (ctx.frozen) return GAME_TEXTS.frozenCannotUsePowerUps;
  if (ctx.status !== 'active') return GAME_TEXTS.gameNotActive;
  if (!powerUps.available.includes(type)) return GAME_TEXTS.powerUpNotAvailable;
  if (type === 'FREEZE' && opponents === 0) return GAME_TEXTS.noOpponentsToFreeze;
  return null;
}

/** Whether any hand card matches any pile top: the client's own deadlock test (spec §4). */
export function hasPlayableCard(hand: readonly Card[], piles: readonly (readonly Card[])[]): boolean {
  const tops = piles.map((pile) => pile.at(-1)).filter((top): top is Card => top !== undefined);
  return hand.some((card) => tops.some((top) => matches(card, top)));
}

/** The piles a card may go on. */
export function playablePiles(card: Card, piles: readonly (readonly Card[])[]): number[] {
  const out: number[] = [];
  piles.forEach((pile, index) => {
    const top = pile.at(-1);
    if (top && matches(card, top)) out.push(index);
  });
  return out;
}

/** Opponents still in the game who can be frozen (not frozen already, not gone). */
export function freezeTargets(view: GameStateView | null, me: string | null) {
  return (view?.players ?? []).filter((p) => p.userId !== me && !p.hasLeft && !p.isFrozen && p.cardsLeft > 0);
}

/**
 * Where a stuck hand is on the deadlock ladder (spec §4): the notice from 5 s (counting to 10 s),
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
