/**
 * What the game screen shows of the live state: the server's hand and piles with the pending moves
 * laid over them, and this player's own counts.
 */
import type { Card } from '@memeslam/engine';
import type { LiveGame, PowerUpState } from './state.ts';

/** What the screen draws: the server's hand and piles with the pending moves laid over them. */
export function displayed(state: LiveGame): {
  readonly hand: readonly Card[];
  readonly piles: readonly (readonly Card[])[];
  readonly cardsLeft: number;
  readonly powerUps: PowerUpState;
} {
  const piles = (state.view?.discardPiles ?? []).map((pile) => [...pile]);
  const onPiles = new Set(piles.flat().map((c) => c.id));
  // A play whose ack is late is drawn where the server last had it, in the hand, until it answers.
  const pendingPlays = state.pendingPlays.filter((p) => !p.late);
  const hidden = new Set([...pendingPlays.map((p) => p.card.id), ...state.playedIds]);
  const inHand = new Set(state.hand.map((c) => c.id));
  for (const play of pendingPlays) {
    const pile = piles[play.pileIndex];
    if (pile && !onPiles.has(play.card.id)) pile.push(play.card);
  }
  const pendingPower = new Set(state.pendingPowerUps);
  return {
    hand: state.hand.filter((c) => !hidden.has(c.id)),
    piles: piles.map((pile) => pile.slice(-3)),
    cardsLeft: Math.max(
      0,
      state.cardsLeft - pendingPlays.filter((p) => inHand.has(p.card.id)).length - state.playedIds.length,
    ),
    powerUps: {
      available: state.powerUps.available.filter((t) => !pendingPower.has(t)),
      used: [...state.powerUps.used, ...state.pendingPowerUps.filter((t) => !state.powerUps.used.includes(t))],
    },
  };
}

/**
 * This player's own counts as the server keeps them (each event's view), else as this client counted
 * them: a Bomb or a Sniper is one card played, as the engine counts it.
 */
export function ownCounts(state: LiveGame): { readonly cardsPlayed: number; readonly powerUpsUsed: number } {
  const me = state.view?.players.find((p) => p.userId === state.me);
  return {
    cardsPlayed: me?.cardsPlayed ?? state.counters.cardsPlayed,
    powerUpsUsed: me ? me.powerUps.used.length : state.counters.powerUpsUsed,
  };
}
