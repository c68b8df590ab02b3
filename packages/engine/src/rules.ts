import { profileOf, reactionDelay } from './bot-profiles.ts';
import { type Card, matches } from './cards.ts';
import { type PlaySituation, hasPlayableCard } from './checks.ts';
import { EARLY_LEAVE_MIN_CARDS, EARLY_LEAVE_MS, HAND_SIZE, SPEED_TABLE } from './constants.ts';
import type { Draft, MutablePlayer } from './draft.ts';
import { cardsLeft, rankPlayers } from './ranking.ts';
import type { EndReason, PlayerState } from './types.ts';

export function inGame(p: PlayerState): boolean {
  return p.left === null;
}

export function isFrozen(p: PlayerState, now: number): boolean {
  return p.frozenUntil !== null && p.frozenUntil > now;
}

/** What the play checks (checks.ts) read of player i. */
export function playSituation(d: Draft, i: number): PlaySituation {
  const p = d.peek(i);
  return { status: d.status, frozen: isFrozen(p, d.clock), hand: p.hand, pileTops: d.pileTops() };
}

/** Every (hand index, pile index) pair that may be played now. */
export function playableMoves(d: Draft, i: number): { handIndex: number; pileIndex: number }[] {
  const moves: { handIndex: number; pileIndex: number }[] = [];
  const hand = d.peek(i).hand;
  for (let pileIndex = 0; pileIndex < d.pileCount; pileIndex += 1) {
    const top = d.top(pileIndex);
    if (!top) continue;
    for (let handIndex = 0; handIndex < hand.length; handIndex += 1) {
      if (matches(hand[handIndex] as Card, top)) moves.push({ handIndex, pileIndex });
    }
  }
  return moves;
}

export function refillHand(p: MutablePlayer): void {
  while (p.hand.length < HAND_SIZE && p.deck.length > 0) p.hand.push(p.deck.shift() as Card);
}

/**
 * Puts a card on a pile (matching already checked or deliberately skipped), refills the hand and ends
 * the game when the player has no cards left. `source` says where the card came from.
 */
export function placeCard(
  d: Draft,
  i: number,
  source: { from: 'hand' | 'deck'; index: number },
  pileIndex: number,
): Card {
  const p = d.cards(i);
  const from = source.from === 'hand' ? p.hand : p.deck;
  const card = from[source.index] as Card;
  // Close the gap by hand: splice would allocate an array for the one removed card.
  for (let k = source.index; k < from.length - 1; k += 1) from[k] = from[k + 1] as Card;
  from.pop();
  d.pushOnPile(pileIndex, card);
  refillHand(p);
  p.cardsPlayed += 1;
  d.deadlock.consecutiveUnresolvable = 0;
  d.emit({ type: 'cardPlayed', playerId: p.id, card, pileIndex });
  d.emit({ type: 'handChanged', playerId: p.id });
  if (cardsLeft(p) === 0) endGame(d, 'win', p.id);
  return card;
}

export function endGame(d: Draft, reason: EndReason, winnerId: string | null): void {
  if (d.status === 'finished') return;
  const players: PlayerState[] = [];
  for (let i = 0; i < d.playerCount; i += 1) players.push(d.peek(i));
  const winner =
    reason === 'aborted'
      ? null
      : (winnerId ?? rankPlayers(players, null, reason).find((r) => !r.forfeited)?.playerId ?? null);
  const result = {
    winnerId: winner,
    reason,
    endedAt: d.clock,
    durationMs: d.clock - d.base.startedAt,
    ranking: rankPlayers(players, winner, reason),
  };
  d.status = 'finished';
  d.result = result;
  d.deadlock.resolveAt = null;
  for (let k = 0; k < d.playerCount; k += 1) {
    const p = d.peek(k);
    if (p.nextBotActionAt !== null) d.player(k).nextBotActionAt = null;
    // Freezes end with the game, like their effects: no view of a finished game shows a frozen player.
    if (p.frozenUntil !== null) {
      const thawed = d.player(k);
      thawed.frozenUntil = null;
      thawed.frozenBy = null;
    }
  }
  d.effects = [];
  d.emit({ type: 'gameEnded', result });
}

export function anyoneCanPlay(d: Draft): boolean {
  const tops = d.pileTops();
  for (let i = 0; i < d.playerCount; i += 1) {
    const p = d.peek(i);
    if (inGame(p) && hasPlayableCard(p.hand, tops)) return true;
  }
  return false;
}

/**
 * Re-derives what follows from hands and piles after every change: each player's "stuck since" time
 * and whether a global deadlock exists (arming or disarming its automatic resolution).
 */
export function refreshDerived(d: Draft): void {
  if (d.status !== 'active') return;
  let anyoneCanPlay = false;
  const tops = d.pileTops();
  for (let i = 0; i < d.playerCount; i += 1) {
    const p = d.peek(i);
    if (!inGame(p)) continue;
    const canPlay = hasPlayableCard(p.hand, tops);
    anyoneCanPlay ||= canPlay;
    if (canPlay && p.stuckSince !== null) {
      d.player(i).stuckSince = null;
      botSeesNewTop(d, i);
    }
    if (!canPlay && p.stuckSince === null) d.player(i).stuckSince = d.clock;
  }
  if (anyoneCanPlay) {
    d.deadlock.resolveAt = null;
  } else if (d.deadlock.resolveAt === null) {
    d.deadlock.resolveAt = d.clock + SPEED_TABLE[d.base.config.speed].deadlockDelayMs;
    d.deadlock.count += 1;
    d.emit({ type: 'deadlockDetected', resolveAt: d.deadlock.resolveAt });
  }
}

/**
 * Whether a player who left contested the game before going (docs/fair-play.md): they stayed at least
 * EARLY_LEAVE_MS of play (from `startedAt`) and played at least EARLY_LEAVE_MIN_CARDS cards. "Stayed"
 * ends when they went (`left.wentAt`): for a disconnect that ran out its grace, when they disconnected,
 * not when the grace ran out.
 */
export function contestedBeforeLeaving(p: PlayerState, startedAt: number): boolean {
  return p.left !== null && p.left.wentAt - startedAt >= EARLY_LEAVE_MS && p.cardsPlayed >= EARLY_LEAVE_MIN_CARDS;
}

/**
 * Ends the game when leaving players decide it: no human left (abort), or one player left, who wins by
 * forfeit when at least one player who left contested the game first; when every leaver walked away
 * early, nobody won a contest and the game is aborted (docs/fair-play.md).
 */
export function checkRemainingPlayers(d: Draft): void {
  if (d.status !== 'active') return;
  const remaining: PlayerState[] = [];
  let contested = false;
  for (let i = 0; i < d.playerCount; i += 1) {
    const p = d.peek(i);
    if (inGame(p)) remaining.push(p);
    else if (p.bot === null && contestedBeforeLeaving(p, d.base.startedAt)) contested = true;
  }
  if (d.base.hadHumans && !remaining.some((p) => p.bot === null)) endGame(d, 'aborted', null);
  else if (remaining.length === 1) {
    if (contested) endGame(d, 'forfeit', (remaining[0] as PlayerState).id);
    else endGame(d, 'aborted', null);
  }
}

/**
 * A waiting bot (no playable card) that gets one, through someone's play, a whirlwind, a deadlock's
 * new tops or its own power-up, sees it after its reaction time rather than at its next look.
 * Called by refreshDerived (below) when the player's stuck time ends.
 */
export function botSeesNewTop(d: Draft, i: number): void {
  const p = d.peek(i);
  if (p.bot === null || p.nextBotActionAt === null || isFrozen(p, d.clock)) return;
  const at = d.clock + reactionDelay(d.random, profileOf(p), d.base.config.speed);
  if (at < p.nextBotActionAt) d.player(i).nextBotActionAt = at;
}
