import type { Card } from './cards.ts';
import { MAX_CONSECUTIVE_UNRESOLVABLE, SPEED_TABLE, UNRESOLVABLE_REASON } from './constants.ts';
import type { Draft } from './draft.ts';
import { anyoneCanPlay, endGame } from './rules.ts';
import type { DeadlockMode } from './types.ts';

/**
 * Flips one stock card onto each pile. When the stock cannot cover every pile, every card under the
 * pile tops is shuffled into the stock first. Returns how many cards were flipped (0: unresolvable).
 */
function flipFromStock(d: Draft): { flipped: number; recycled: number } {
  let recycled = 0;
  if (d.stockView.length < d.pileCount) {
    const stock = d.stock();
    for (let i = 0; i < d.pileCount; i += 1) {
      if (d.pileView(i).length <= 1) continue;
      const pile = d.pile(i);
      const under = pile.splice(0, pile.length - 1);
      recycled += under.length;
      stock.push(...under);
    }
    if (recycled > 0) d.random.shuffle(stock);
  }
  let flipped = 0;
  for (let i = 0; i < d.pileCount && d.stockView.length > 0; i += 1) {
    d.pile(i).push(d.stock().pop() as Card);
    flipped += 1;
  }
  return { flipped, recycled };
}

/**
 * Resolves a deadlock by flipping new pile tops. If nothing can be flipped, reports the deadlock as
 * unresolvable. Only the game's own timed attempts at a global deadlock count towards its end (the
 * third in a row, with no card played between, ends the game by ranking): a player's check or forced
 * resolution reports it and leaves the count and the next attempt alone, so clients asking cannot
 * hurry the end. Returns whether new tops were flipped.
 */
export function resolveDeadlock(d: Draft, mode: DeadlockMode): boolean {
  const global = !anyoneCanPlay(d);
  const { flipped, recycled } = flipFromStock(d);
  if (flipped > 0) {
    d.deadlock.resolveAt = null;
    d.emit({ type: 'deadlockResolved', mode, cardsFlipped: flipped, recycled });
    return true;
  }
  if (!global || mode !== 'automatic') {
    d.emit({
      type: 'deadlockUnresolvable',
      reason: UNRESOLVABLE_REASON,
      consecutiveDeadlocks: d.deadlock.consecutiveUnresolvable,
    });
    return false;
  }
  d.deadlock.consecutiveUnresolvable += 1;
  const consecutiveDeadlocks = d.deadlock.consecutiveUnresolvable;
  d.emit({ type: 'deadlockUnresolvable', reason: UNRESOLVABLE_REASON, consecutiveDeadlocks });
  if (consecutiveDeadlocks >= MAX_CONSECUTIVE_UNRESOLVABLE) {
    endGame(d, 'deadlock', null);
  } else {
    // Retry after the speed's delay, even if the deadlock is still there at the next refresh.
    d.deadlock.resolveAt = d.clock + SPEED_TABLE[d.base.config.speed].deadlockDelayMs;
  }
  return false;
}
