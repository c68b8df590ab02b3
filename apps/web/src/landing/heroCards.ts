/**
 * The landing hero's endless slam: card n + 1 always goes legally onto card n, matching it by
 * number, then color, then logo in turn while the other two change, so the rotation shows the
 * game's one rule as well as its art. Pure, indexed from 0, the same in every visit.
 */
import { CARD_COLORS, CARD_LOGOS, CARD_NUMBERS, type Card } from '@memeslam/engine';

export type MatchKind = 'number' | 'color' | 'logo';

const KINDS: readonly MatchKind[] = ['number', 'color', 'logo'];

/** How card n (n ≥ 1) matches card n − 1. */
export function heroMatch(n: number): MatchKind {
  return KINDS[(n - 1) % KINDS.length] ?? 'number';
}

const at = <T>(list: readonly T[], i: number): T => list[i % list.length] as T;

/**
 * Each round of the three kinds moves every position on by 3, so after 10 rounds (30 cards, a
 * multiple of 5 numbers and of 6 colors and logos) the sequence starts over.
 */
export const HERO_PERIOD = 30;

/** The n-th card of the sequence, n ≥ 0. */
export function heroCard(n: number): Card {
  // Positions in the three lists; each step keeps the matched one and moves the others on by
  // different strides, so the numbers, colors and logos all keep changing.
  let number = 2;
  let color = 0;
  let logo = 1;
  for (let k = 1; k <= n % HERO_PERIOD; k += 1) {
    const kind = heroMatch(k);
    if (kind !== 'number') number += kind === 'color' ? 2 : 1;
    if (kind !== 'color') color += kind === 'number' ? 1 : 2;
    if (kind !== 'logo') logo += kind === 'number' ? 2 : 1;
  }
  const face = {
    number: at(CARD_NUMBERS, number),
    color: at(CARD_COLORS, color),
    logo: at(CARD_LOGOS, logo),
  };
  return { id: `${face.number}-${face.color}-${face.logo}-hero${n}`, ...face };
}
