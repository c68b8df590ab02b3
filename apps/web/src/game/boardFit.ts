/**
 * How big the cards on the game screen are: the largest of the card art's sizes with which the
 * piles (in one row) and the hand fit the space the centre column has, so the whole game fits one
 * screen from a phone to a large monitor. Pure; the screen measures the space and asks.
 */
import { CARD_WIDTH, type CardSize } from '../cards/palette.ts';

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
/** The piles' box border, one side. */
export const BOARD_BORDER = 1;

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
  /** The card art's size (its layout: corners, logo name, the pile's long label). */
  readonly pile: CardSize;
  readonly hand: CardSize;
  /**
   * Width in px the cards are drawn at: the size's own, grown toward the next size up while the
   * board still fits, so the cards fill the screen rather than leave a strip of it empty.
   */
  readonly pileWidth: number;
  readonly handWidth: number;
}

const heightOf = (width: number): number => Math.round((width * 7) / 5);

function pileRowWidth(width: number, long: boolean, space: BoardSpace): number {
  const one = Math.max(width + 2 * PILE_BUTTON_PADDING, long ? PILE_LABEL_WIDTH : 0);
  return space.piles * one + (space.piles - 1) * space.pileGap + 2 * (space.boardPadding + BOARD_BORDER);
}

/** Whether piles and hand of these widths (px) fit the space. */
function fits(pile: CardSize, pileWidth: number, handWidth: number, space: BoardSpace): boolean {
  if (pileRowWidth(pileWidth, longPileLabel(pile), space) > space.width) return false;
  if (space.hand && 3 * handWidth + 2 * space.handGap > space.width) return false;
  const pileBox =
    heightOf(pileWidth) + 2 * PILE_BUTTON_PADDING + PILE_LABEL_HEIGHT + 2 * (space.boardPadding + BOARD_BORDER);
  const handRow = space.hand ? heightOf(handWidth) + HAND_LIFT : 0;
  return pileBox + handRow <= space.height;
}

/** The next size up's width, or the size's own for the largest: how far a size may grow. */
function growthCap(size: CardSize): number {
  const index = SIZES_LARGEST_FIRST.indexOf(size);
  return CARD_WIDTH[SIZES_LARGEST_FIRST[Math.max(0, index - 1)] as CardSize];
}

/** Grows the chosen sizes a pixel at a time (both, else the hand, else the piles) while they fit. */
function grow(pile: CardSize, hand: CardSize, space: BoardSpace): BoardSizes {
  let pileWidth = CARD_WIDTH[pile];
  let handWidth = CARD_WIDTH[hand];
  const pileCap = growthCap(pile);
  const handCap = space.hand ? growthCap(hand) : handWidth;
  for (;;) {
    const steps: [number, number][] = [
      [pileWidth + 1, handWidth + 1],
      [pileWidth, handWidth + 1],
      [pileWidth + 1, handWidth],
    ];
    const next = steps.find(([p, h]) => p <= pileCap && h <= handCap && fits(pile, p, h, space));
    if (!next) return { pile, hand, pileWidth, handWidth };
    [pileWidth, handWidth] = next;
  }
}

/**
 * The largest card sizes with which the piles (in one row) and the hand fit the space, grown to
 * fill it. Piles and hand are one size, except with four or more piles, whose row may take the next
 * size down while the hand keeps the larger (a phone's hand stays easy to tap with six players).
 * Falls back to the smallest sizes when nothing fits.
 */
export function fitCardSizes(space: BoardSpace): BoardSizes {
  const smallest = SIZES_LARGEST_FIRST.at(-1) as CardSize;
  const steps = space.piles >= 4 ? 2 : 1;
  for (const [index, hand] of SIZES_LARGEST_FIRST.entries()) {
    const candidates = SIZES_LARGEST_FIRST.slice(index, index + steps);
    const pile = candidates.find((size) => fits(size, CARD_WIDTH[size], CARD_WIDTH[hand], space));
    if (pile) return grow(pile, hand, space);
  }
  return { pile: smallest, hand: smallest, pileWidth: CARD_WIDTH[smallest], handWidth: CARD_WIDTH[smallest] };
}
