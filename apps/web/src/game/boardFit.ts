/**
 * How big the cards on the game screen are: the largest of the card art's sizes with which the
 * piles (in one row) and the hand fit the space the centre column has, so the whole game fits one
 * screen from a phone to a large monitor. Pure; the screen measures the space and asks.
 */
import { CARD_WIDTH, type CardSize, cardHeight } from '../cards/palette.ts';

/** Card sizes from the largest down: the board takes the largest that fits its space. */
const SIZES_LARGEST_FIRST: readonly CardSize[] = ['xxl', 'xl', 'lg', 'md', 'sm'];

/**
 * The board's measures in px, as the game screen's classes draw them: a pile is its card in a
 * button with p-1 (4 px a side) over a label line (gap 4 px, 16 px of text-xs) — "1 Pile 1 · 12"
 * under large cards, at most PILE_LABEL_WIDTH wide, the short "1 · 12" under smaller ones; the hand
 * row leaves room above its cards for the selected one's lift.
 */
export const PILE_BUTTON_PADDING = 4;
export const PILE_LABEL_HEIGHT = 20;
export const PILE_LABEL_WIDTH = 84;
export const HAND_LIFT = 12;

/** Whether a pile of this card size carries the long label ("Pile 1") or only its number. */
export function longPileLabel(size: CardSize): boolean {
  return CARD_WIDTH[size] >= CARD_WIDTH.lg;
}

export interface BoardSpace {
  /** Inner width of the centre column. */
  readonly width: number;
  /** Height the piles' box and the hand row share (the centre column less everything else in it). */
  readonly height: number;
  readonly piles: number;
  /** Whether a hand is shown (a spectator has none). */
  readonly hand: boolean;
  /** The piles' box padding (one side), the gap between piles and between hand cards. */
  readonly boardPadding: number;
  readonly pileGap: number;
  readonly handGap: number;
}

export interface BoardSizes {
  readonly pile: CardSize;
  readonly hand: CardSize;
}

function pileRowWidth(size: CardSize, space: BoardSpace): number {
  const one = Math.max(CARD_WIDTH[size] + 2 * PILE_BUTTON_PADDING, longPileLabel(size) ? PILE_LABEL_WIDTH : 0);
  return space.piles * one + (space.piles - 1) * space.pileGap + 2 * space.boardPadding;
}

function pileBoxHeight(size: CardSize, space: BoardSpace): number {
  return cardHeight(size) + 2 * PILE_BUTTON_PADDING + PILE_LABEL_HEIGHT + 2 * space.boardPadding;
}

/**
 * The largest card sizes with which the piles (in one row) and the hand fit the space. Piles and
 * hand are one size, except with four or more piles, whose row may take the next size down while
 * the hand keeps the larger (a phone's hand stays easy to tap with six players). Falls back to the
 * smallest sizes when nothing fits.
 */
export function fitCardSizes(space: BoardSpace): BoardSizes {
  const smallest = SIZES_LARGEST_FIRST.at(-1) as CardSize;
  const steps = space.piles >= 4 ? 2 : 1;
  for (const [index, hand] of SIZES_LARGEST_FIRST.entries()) {
    if (space.hand && 3 * CARD_WIDTH[hand] + 2 * space.handGap > space.width) continue;
    const candidates = SIZES_LARGEST_FIRST.slice(index, index + steps);
    const pile = candidates.find((size) => pileRowWidth(size, space) <= space.width);
    if (!pile) continue;
    const handHeight = space.hand ? cardHeight(hand) + HAND_LIFT : 0;
    if (pileBoxHeight(pile, space) + handHeight <= space.height) return { pile, hand };
  }
  return { pile: smallest, hand: smallest };
}
